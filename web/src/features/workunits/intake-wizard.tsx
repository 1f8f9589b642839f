import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from '../../lib/router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import Form from '@rjsf/mui';
import type { RJSFSchema, TitleFieldProps } from '@rjsf/utils';
import { INTAKE_MESSAGES } from '@cfs/contracts/intake';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { useReportUnsavedChanges } from '../../components/side-drawer';
import { pathId } from '../../lib/ids';
import { useCreateIntake } from './intake-api';
import {
  hasAnswers,
  intakeSteps,
  intakeWorkUnit,
  stepAnswers,
  withStepAnswers,
  type Answers,
} from './intake-wizard-model';
import { intakeErrorTexts } from './intake-error-texts';
import { jsonSchemaValidator } from '../../lib/json-schema-validator';

/**
 * A section's title as the heading under the panel's own (h2): the form library's h5 skipped two
 * levels, and a screen reader's list of headings showed the sections under nothing.
 */
function SectionTitle({ id, title }: TitleFieldProps) {
  return (
    <Box id={id} sx={{ my: 1 }}>
      <Typography variant="h6" component="h3">
        {title}
      </Typography>
      <Divider />
    </Box>
  );
}

const TEMPLATES = { TitleFieldTemplate: SectionTitle };

/**
 * The wizard of spec 001 §2 "Intake drawer", built with react-jsonschema-form from the tenant's
 * stored schema: one step per section with a stepper, Back / Next / Submit, each step checked
 * against its part of the schema before the next. Submit creates the Intake work unit and goes
 * to it at /{tenantId}/workunitsv2?workUnitId={id}.
 */
export function IntakeWizard({ schema, tenant }: { schema: RJSFSchema; tenant: { tenantId: string; name: string } }) {
  const steps = useMemo(() => intakeSteps(schema), [schema]);
  const [active, setActive] = useState(0);
  const [answers, setAnswers] = useState<Answers>({});
  const [created, setCreated] = useState<WorkUnit | null>(null);
  const create = useCreateIntake();
  const navigate = useNavigate();
  const step = steps[Math.min(active, steps.length - 1)];
  const last = active >= steps.length - 1;

  // Answers typed and not yet sent are asked about before the panel closes; none once sent.
  useReportUnsavedChanges(created === null && hasAnswers(answers));
  useEffect(() => {
    if (created) void navigate(`/${pathId(created.tenantId)}/workunitsv2?workUnitId=${created.workUnitId}`);
  }, [created, navigate]);

  if (!step) return null;

  const submitStep = (values: Answers) => {
    const next = withStepAnswers(step, answers, values);
    setAnswers(next);
    if (!last) {
      setActive(active + 1);
      return;
    }
    create.mutate(intakeWorkUnit(schema, next, tenant), { onSuccess: (unit) => setCreated(unit) });
  };

  return (
    <Box>
      {/* With one step the form shows the schema's own title and description; with several, they head the stepper. */}
      {steps.length > 1 && schema.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {schema.description}
        </Typography>
      )}
      <Stepper activeStep={active} alternativeLabel sx={{ mb: 3 }}>
        {steps.map((item) => (
          <Step key={item.key ?? ''}>
            <StepLabel>{item.title}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {create.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {INTAKE_MESSAGES.problem}
        </Alert>
      )}
      <Form
        // A new form per step: its own schema, errors and focus.
        key={active}
        schema={step.schema}
        validator={jsonSchemaValidator}
        transformErrors={intakeErrorTexts}
        templates={TEMPLATES}
        formData={stepAnswers(step, answers)}
        onChange={(event) =>
          setAnswers((previous) => withStepAnswers(step, previous, (event.formData as Answers | undefined) ?? {}))
        }
        onSubmit={(event) => submitStep((event.formData as Answers | undefined) ?? {})}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        disabled={create.isPending || created !== null}
      >
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 3 }}>
          <Button onClick={() => setActive(active - 1)} disabled={active === 0 || create.isPending}>
            Back
          </Button>
          <Button type="submit" variant="contained" disabled={create.isPending || created !== null}>
            {last ? 'Submit' : 'Next'}
          </Button>
        </Box>
      </Form>
    </Box>
  );
}
