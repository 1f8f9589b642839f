import { z } from 'zod';
import { EMAIL_PATTERN, PHONE_PATTERN, requiredText } from './fields.js';

/** The access request form (spec 001 §2, §5, §7): a visitor's new account or password reset request. */
export const ACCESS_REQUEST_FEATURE = 'I3ERequestForm';

export const ACCESS_REQUEST_TYPES = ['NewAccount', 'PasswordReset'] as const;
export type AccessRequestType = (typeof ACCESS_REQUEST_TYPES)[number];
export const ACCESS_REQUEST_TYPE_LABELS: Record<AccessRequestType, string> = {
  NewAccount: 'New Account',
  PasswordReset: 'Password Reset',
};

export const ACCESS_REQUEST_ENVIRONMENTS = ['IL4 (CUI)', 'Commercial'] as const;
export const ACCESS_REQUEST_DEFAULT_ENVIRONMENT = 'IL4 (CUI)';
export const ACCESS_REQUEST_SUFFIXES = ['Jr.', 'Sr.', 'II', 'III', 'IV'] as const;
export const ACCESS_REQUEST_DESIGNATIONS = ['Military', 'Civilian Employee', 'Contractor'] as const;

/** The work unit's title label after the environment (spec 001 §7: title "{environment}" followed by an account-request label). */
export const ACCESS_REQUEST_TITLE_LABEL = 'Account Request';
/** Spec 001 §9: the request's work unit is planned to finish 2 days after it starts. */
export const ACCESS_REQUEST_FINISH_DAYS = 2;
/** A form sent sooner than this after it was opened is a bot's. */
export const ACCESS_REQUEST_MIN_FILL_MS = 3000;
/** Requests one address may send per hour. */
export const ACCESS_REQUEST_RATE_LIMIT = 5;

export const ACCESS_REQUEST_MESSAGES = {
  success: 'Successfully created access request.',
  failure: 'A problem occurred. Please try again.',
  requestTypeRequired: 'Request type is required.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  middleInitial: 'Please enter a single character.',
  emailRequired: 'Email is required.',
  emailInvalid: 'Please enter a valid email address.',
  phoneRequired: 'Phone number is required.',
  phoneInvalid: 'Please enter a valid phone number.',
  targetAccountRequired: 'Target account name is required.',
  targetAccountInvalid: 'Please enter a valid email address.',
  environmentRequired: 'Environment is required.',
  citizenshipRequired: 'Citizenship is required.',
  designationRequired: 'Designation is required.',
  gradeRequired: 'Grade is required.',
  companyRequired: 'Company name is required.',
  organizationRequired: 'Organization is required.',
  acknowledgementRequired: 'Please acknowledge before sending the request.',
} as const;

const M = ACCESS_REQUEST_MESSAGES;
const optionalText = (max: number) => z.string().trim().max(max).optional();

/** The form's fields with every rule of spec 001 §5; the server and the drawer check the same schema. */
export const accessRequestFieldsSchema = z
  .object({
    requestType: z.enum(ACCESS_REQUEST_TYPES, { error: M.requestTypeRequired }),
    firstName: requiredText(M.firstNameRequired, 100),
    middleInitial: z
      .string()
      .trim()
      .refine((value) => value === '' || /^\p{L}$/u.test(value), M.middleInitial)
      .optional(),
    lastName: requiredText(M.lastNameRequired, 100),
    suffix: z
      .union([z.enum(ACCESS_REQUEST_SUFFIXES), z.literal('')])
      .nullable()
      .optional(),
    email: requiredText(M.emailRequired, 320).refine((value) => EMAIL_PATTERN.test(value), M.emailInvalid),
    phone: requiredText(M.phoneRequired, 50).refine((value) => PHONE_PATTERN.test(value), M.phoneInvalid),
    targetAccountName: optionalText(320),
    environment: z
      .enum(ACCESS_REQUEST_ENVIRONMENTS, { error: M.environmentRequired })
      .default(ACCESS_REQUEST_DEFAULT_ENVIRONMENT),
    citizenship: optionalText(100),
    designation: z
      .union([z.enum(ACCESS_REQUEST_DESIGNATIONS), z.literal('')])
      .nullable()
      .optional(),
    grade: optionalText(50),
    companyName: optionalText(200),
    organization: optionalText(200),
    acknowledgePolicy: z.boolean().refine((value) => value, M.acknowledgementRequired),
    acknowledgeAccuracy: z.boolean().refine((value) => value, M.acknowledgementRequired),
  })
  .superRefine((form, ctx) => {
    const require = (path: keyof typeof form, message: string) => {
      const value = form[path];
      if (typeof value !== 'string' || value.trim() === '') ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (form.requestType === 'PasswordReset') {
      require('targetAccountName', M.targetAccountRequired);
      if (form.targetAccountName && !EMAIL_PATTERN.test(form.targetAccountName))
        ctx.addIssue({ code: 'custom', path: ['targetAccountName'], message: M.targetAccountInvalid });
      return;
    }
    require('citizenship', M.citizenshipRequired);
    require('designation', M.designationRequired);
    require('organization', M.organizationRequired);
    if (form.designation === 'Military') require('grade', M.gradeRequired);
    if (form.designation === 'Contractor') require('companyName', M.companyRequired);
  });
export type AccessRequestFields = z.input<typeof accessRequestFieldsSchema>;

/**
 * POST /api/v1/accessrequest in our form: the form plus the bot guards. `website` is a field
 * people never see (it must stay empty); `startedAt` is when the form was opened (ISO time): a
 * form sent sooner than a person could fill it is refused.
 */
const accessRequestFormBodySchema = z.object({
  form: accessRequestFieldsSchema,
  website: z.string().max(500).optional(),
  startedAt: z.iso.datetime({ offset: true, error: M.failure }).optional(),
});
export type AccessRequestBody = z.input<typeof accessRequestFormBodySchema>;

/**
 * The work unit's fields the spec's form sends beside the form's (spec 001 §7: title, description,
 * stakeholder, planned start and finish, severity). The portal sets them itself from the form, so
 * what is sent in them is not read.
 */
const SPEC_WORK_UNIT_FIELDS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'stakeHolderFullName',
  'stakeHolderEmailAddress',
  'stakeHolderPhoneNumber',
  'plannedStartTime',
  'plannedFinishTime',
  'severityId',
]);
const FORM_FIELDS: ReadonlySet<string> = new Set(Object.keys(accessRequestFieldsSchema.shape));

/**
 * The access request's body in either wire form. Ours holds the form in `form`; any other body is
 * the spec's (001 §7): the form's fields at the top level, with the work unit's fields the spec's
 * client adds (`SPEC_WORK_UNIT_FIELDS`), and `website` and `startedAt` when it sends them. A
 * member of neither form is a 400 naming it.
 */
export const accessRequestBodySchema = z.preprocess((body) => {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'form' in body) return body;
  const form: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (FORM_FIELDS.has(key)) form[key] = value;
    else if (!SPEC_WORK_UNIT_FIELDS.has(key)) rest[key] = value;
  }
  return { ...rest, form };
}, accessRequestFormBodySchema);

export const accessRequestAnswerSchema = z.object({ message: z.string() });
