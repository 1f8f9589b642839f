import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  communicationActivityInputSchema,
  type ActivityType,
  type CommunicationActivityInput,
} from '@cfs/contracts/communications';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { InlineFormCard, useInlineEditor } from '../../components/inline-editor';
import { formatShortDateTime } from '../../lib/dates';
import { useActivities, useDeleteActivity, useSaveActivity, type CommunicationActivity } from './api';
import { PersonLabel } from '../../components/person-label';

const LISTS: readonly { type: ActivityType; title: string; label: string; empty: string }[] = [
  { type: 'ResolutionActivity', title: 'Past steps', label: 'Past step', empty: 'No past steps.' },
  { type: 'TaskActivity', title: 'Next steps', label: 'Next step', empty: 'No next steps.' },
];

/**
 * A communication's activities (spec 001 §2, §3 Communication activity, §4 Activity): past steps
 * (complete, ResolutionActivity) and next steps (TaskActivity), added, edited and deleted in place.
 * Completing a next step makes it a past step.
 */
export function CommunicationActivities({ communicationId, canEdit }: { communicationId: string; canEdit: boolean }) {
  const activities = useActivities(communicationId);
  // Save leaves the form ready for another step of the same kind (operators add several in a row).
  const editor = useInlineEditor<CommunicationActivity, ActivityType>((row) => row.workUnitCommunicationActivityId, {
    afterCreate: 'new',
  });
  const deleting = useItemQuestion<CommunicationActivity>();
  const remove = useDeleteActivity();
  const rows = activities.data?.rows ?? [];

  return (
    <Box>
      {editor.editing !== null && (
        <ActivityForm
          key={editor.key}
          communicationId={communicationId}
          activity={editor.item}
          newType={editor.kind ?? 'TaskActivity'}
          onSaved={editor.saved}
          onClose={editor.close}
        />
      )}
      {LISTS.map((list) => {
        const shown = rows.filter((row) => row.activityType === list.type);
        return (
          <Box key={list.type} component="section" aria-label={list.title} sx={{ mb: 2 }}>
            <Box sx={{ display: 'flex', alignItems: 'center' }}>
              <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
                {list.title}
              </Typography>
              {canEdit && (
                <Button size="small" startIcon={<AddIcon />} onClick={() => editor.open('new', list.type)}>
                  Add {list.label}
                </Button>
              )}
            </Box>
            {shown.length === 0 ? (
              <Typography color="text.secondary" variant="body2">
                {activities.isPending ? 'Loading...' : list.empty}
              </Typography>
            ) : (
              <List dense>
                {shown.map((row) => (
                  <ListItem
                    key={row.workUnitCommunicationActivityId}
                    divider
                    secondaryAction={
                      canEdit ? (
                        <Box>
                          <Tooltip title="Edit">
                            <IconButton aria-label="Edit activity" onClick={() => editor.open(row)}>
                              <EditIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                          <Tooltip title="Delete">
                            <IconButton aria-label="Delete activity" edge="end" onClick={() => deleting.ask(row)}>
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </Box>
                      ) : undefined
                    }
                    sx={{ pr: canEdit ? 12 : 2 }}
                  >
                    <ListItemText
                      primary={<Box sx={{ whiteSpace: 'pre-wrap' }}>{row.details}</Box>}
                      secondary={
                        <Box
                          component="span"
                          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}
                        >
                          <Chip
                            component="span"
                            size="small"
                            variant="outlined"
                            color={row.isCustomerFacing ? 'primary' : 'default'}
                            label={row.isCustomerFacing ? 'Customer facing' : 'Internal only'}
                          />
                          {row.isComplete && row.completed && (
                            <span>Completed {formatShortDateTime(row.completed)}</span>
                          )}
                          <span>
                            Added {formatShortDateTime(row.created)}
                            {row.createdBy && (
                              <>
                                {' by '}
                                <PersonLabel value={row.createdBy} />
                              </>
                            )}
                          </span>
                        </Box>
                      }
                      slotProps={{ secondary: { component: 'span' } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Box>
        );
      })}
      <ItemConfirmDialog
        question={deleting}
        title="Delete activity"
        text="Are you sure you want to delete this activity?"
        onConfirm={(activity) =>
          remove.mutateAsync(activity.workUnitCommunicationActivityId).then(() => {
            if (editor.item?.workUnitCommunicationActivityId === activity.workUnitCommunicationActivityId)
              editor.close();
          })
        }
      />
    </Box>
  );
}

interface ActivityFormProps {
  communicationId: string;
  activity: CommunicationActivity | undefined;
  newType: ActivityType;
  onSaved: (activity: CommunicationActivity) => void;
  onClose: () => void;
}

function ActivityForm({ communicationId, activity, newType, onSaved, onClose }: ActivityFormProps) {
  const form = useSchemaForm(
    communicationActivityInputSchema,
    activity
      ? {
          workUnitCommunicationId: communicationId,
          activityType: activity.activityType,
          details: activity.details,
          isCustomerFacing: activity.isCustomerFacing,
          isComplete: activity.isComplete,
          completed: activity.completed,
        }
      : {
          workUnitCommunicationId: communicationId,
          activityType: newType,
          details: '',
          isCustomerFacing: false,
          isComplete: newType === 'ResolutionActivity',
          completed: null,
        },
  );
  const save = useSaveActivity();
  const label = activity ? 'Edit activity' : newType === 'ResolutionActivity' ? 'New past step' : 'New next step';
  return (
    <InlineFormCard label={label} title={label} onCancel={onClose}>
      <FormTextField control={form.control} name="details" label="Details" required multiline minRows={2} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <FormCheckboxField control={form.control} name="isCustomerFacing" label="Customer facing" />
        <FormCheckboxField control={form.control} name="isComplete" label="Complete" />
      </Box>
      <FormActions
        form={form}
        loading={save.isPending}
        onClose={onClose}
        onSave={async (values) => {
          // Spec 001 §4: a complete activity is a past step, an open one a next step; it was
          // completed when first marked complete.
          const completed = values.isComplete
            ? activity?.isComplete && activity.completed
              ? activity.completed
              : new Date().toISOString()
            : null;
          const input: CommunicationActivityInput = {
            ...values,
            activityType: values.isComplete ? 'ResolutionActivity' : 'TaskActivity',
            completed,
          };
          const saved = await save.mutateAsync({ id: activity?.workUnitCommunicationActivityId ?? null, input });
          onSaved(saved);
        }}
      />
    </InlineFormCard>
  );
}
