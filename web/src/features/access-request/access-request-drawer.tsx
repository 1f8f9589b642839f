import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { z } from 'zod';
import {
  ACCESS_REQUEST_DEFAULT_ENVIRONMENT,
  ACCESS_REQUEST_DESIGNATIONS,
  ACCESS_REQUEST_ENVIRONMENTS,
  ACCESS_REQUEST_MESSAGES,
  ACCESS_REQUEST_SUFFIXES,
  ACCESS_REQUEST_TYPE_LABELS,
  ACCESS_REQUEST_TYPES,
  accessRequestFieldsSchema,
  type AccessRequestBody,
} from '@cfs/contracts/access-request';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { SideDrawer } from '../../components/side-drawer';
import { apiSend } from '../../lib/api-client';
import { showToast } from '../../lib/toast';

type Values = z.input<typeof accessRequestFieldsSchema>;

const EMPTY: Values = {
  requestType: 'NewAccount',
  firstName: '',
  middleInitial: '',
  lastName: '',
  suffix: '',
  email: '',
  phone: '',
  targetAccountName: '',
  environment: ACCESS_REQUEST_DEFAULT_ENVIRONMENT,
  citizenship: '',
  designation: '',
  grade: '',
  companyName: '',
  organization: '',
  acknowledgePolicy: false,
  acknowledgeAccuracy: false,
};

const options = (values: readonly string[]): FieldOption[] => values.map((value) => ({ value, label: value }));
const TYPE_OPTIONS: FieldOption[] = ACCESS_REQUEST_TYPES.map((value) => ({
  value,
  label: ACCESS_REQUEST_TYPE_LABELS[value],
}));

export interface AccessRequestDrawerProps {
  open: boolean;
  onClose: () => void;
}

/**
 * The login page's account request drawer (spec 001 §2, §5, §7): a visitor asks for a new account
 * or a password reset; the request becomes a work unit for the service desk. The form carries a
 * field people never see and the time it was opened, by which the server tells bots apart.
 */
export default function AccessRequestDrawer({ open, onClose }: AccessRequestDrawerProps) {
  const [startedAt] = useState(() => new Date().toISOString());
  const [website, setWebsite] = useState('');
  const form = useSchemaForm(accessRequestFieldsSchema, EMPTY);
  const requestType = useWatch({ control: form.control, name: 'requestType' });
  const designation = useWatch({ control: form.control, name: 'designation' });
  const { control } = form;

  const send = async (values: z.output<typeof accessRequestFieldsSchema>) => {
    const body: AccessRequestBody = { form: values, website, startedAt };
    try {
      await apiSend('POST', '/api/v1/accessrequest', body);
    } catch (error) {
      showToast('error', ACCESS_REQUEST_MESSAGES.failure);
      throw error;
    }
    showToast('success', ACCESS_REQUEST_MESSAGES.success);
    // After the form has taken the sent values as its pristine state: nothing is left unsaved.
    setTimeout(onClose, 0);
  };

  return (
    <SideDrawer open={open} onClose={onClose} title="Request Access or Reset Account">
      <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Access request">
        <FormSelectField control={control} name="requestType" label="Request Type" options={TYPE_OPTIONS} required />
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr 2fr 1fr' }, columnGap: 2 }}>
          <FormTextField control={control} name="firstName" label="First Name" required autoFocus />
          <FormTextField
            control={control}
            name="middleInitial"
            label="Middle Initial"
            slotProps={{ htmlInput: { maxLength: 2 } }}
          />
          <FormTextField control={control} name="lastName" label="Last Name" required />
          <FormSelectField
            control={control}
            name="suffix"
            label="Suffix"
            options={options(ACCESS_REQUEST_SUFFIXES)}
            emptyLabel="None"
          />
        </Box>
        <FormTextField control={control} name="email" label="Email" type="email" required />
        <FormTextField control={control} name="phone" label="Phone" type="tel" required />
        {requestType === 'PasswordReset' ? (
          <FormTextField
            control={control}
            name="targetAccountName"
            label="Target Account Name"
            required
            helperText="The account whose password is to be reset, e.g. name@example.com"
          />
        ) : (
          <>
            <FormSelectField
              control={control}
              name="environment"
              label="Environment"
              options={options(ACCESS_REQUEST_ENVIRONMENTS)}
              required
            />
            <FormTextField control={control} name="citizenship" label="Citizenship" required />
            <FormSelectField
              control={control}
              name="designation"
              label="Designation"
              options={options(ACCESS_REQUEST_DESIGNATIONS)}
              required
            />
            {designation === 'Military' && <FormTextField control={control} name="grade" label="Grade" required />}
            {designation === 'Contractor' && (
              <FormTextField control={control} name="companyName" label="Company Name" required />
            )}
            <FormTextField control={control} name="organization" label="Organization" required />
          </>
        )}
        {/* Never seen by people (off screen, out of the tab order); bots that fill every field fill it. */}
        <Box aria-hidden sx={{ position: 'absolute', left: -10000, width: 1, height: 1, overflow: 'hidden' }}>
          <label>
            Website
            <input
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={website}
              onChange={(event) => setWebsite(event.target.value)}
            />
          </label>
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column', mt: 1 }}>
          <FormCheckboxField
            control={control}
            name="acknowledgePolicy"
            label="I acknowledge that access is granted only for official use and is subject to monitoring."
          />
          <FormCheckboxField
            control={control}
            name="acknowledgeAccuracy"
            label="I confirm that the information in this request is accurate."
          />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          The service desk answers by email.
        </Typography>
        <FormActions form={form} onSave={send} saveLabel="Submit" />
      </form>
    </SideDrawer>
  );
}
