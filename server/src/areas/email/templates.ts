import { EMAIL_TEMPLATES, type EmailTemplate, type RenderedEmail } from '@cfs/contracts/automation';
import { SEVERITY_LABELS, STATE_LABELS } from '@cfs/contracts/work-units';
import {
  emailDocument,
  escapeHtml,
  footerHtml,
  headerHtml,
  headingHtml,
  isEmailAddress,
  linkHtml,
  paragraphHtml,
  subheadingHtml,
  tableHtml,
} from '../../engines/email/compose.js';
import type { RuleNotificationGroup } from '../../engines/actions/run.js';
import { utcMinute } from '../../time-zones.js';

/**
 * The Send Email action's templates (spec 002 §3 Email parameters IsImportant, Template,
 * ExtraParameters; §9 the ten templates): a subject and an HTML body from what the email is about.
 *
 * Who receives each template (our choice; the spec names the templates only):
 * - to the work unit's stakeholder, the tenant's internal notification address in Cc:
 *   AllClear, Detailed, GeneralAlert;
 * - to the stakeholder alone: Simple, ResolutionCenterCreated, ResolutionCenterResolved;
 * - to the tenant's internal notification address alone: CfsInternalWuCommNotification, Rule, SOCAlert;
 * - None: no template at all: recipients, subject and content come from ExtraParameters only.
 * Without a stakeholder address (a unit without one, a rule match, a test) a stakeholder's email
 * goes to the internal address instead, so that it reaches somebody.
 *
 * ExtraParameters is the JSON text of an object. `To`, `Cc` and `Bcc` (any case; one address or
 * several separated by commas or semicolons) add recipients; `Subject` replaces the template's
 * subject; every other key is shown with its value under "Additional details".
 */

export interface EmailWorkUnit {
  workUnitId: number;
  title: string;
  description: string | null;
  resolution: string | null;
  severityId: number;
  stateId: number;
  stakeholderName: string | null;
  stakeholderEmail: string | null;
  created: Date;
  /** The unit in the portal: `{PUBLIC_URL}/workunitsv2?workUnitId={id}`. */
  link: string;
}

export interface EmailRuleMatch {
  ruleName: string;
  subjectId: string;
  label: string | null;
  phase: 'match' | 'expiration';
  when: Date;
  /** When the match opened. */
  since: Date;
  /** One email for a group of matches (the tenant's notification policy groups them), this one the first. */
  group: RuleNotificationGroup | null;
  /** A reminder (the policy repeats until someone acknowledges): its number, from 1; null for the first notification. */
  repeat: number | null;
}

/** The subjects an email names one by one; the rest are counted. */
const GROUP_SUBJECTS_NAMED = 50;

const GROUP_BY_LABELS = { rule: 'Rule', location: 'Location', subscription: 'Subscription' } as const;

/** What an email is about: a work unit (protocol actions), a rule match (rule actions) or a test. */
export interface EmailContext {
  tenant: { name: string; internalAddress: string | null };
  workUnit: EmailWorkUnit | null;
  ruleMatch: EmailRuleMatch | null;
  /** A test from the action catalogue: the template shown for a sample work unit, "[Test]" before the subject. */
  test: { triggeredBy: string } | null;
  /** The protocol action's summary, shown as a note. */
  summary: string | null;
}

export interface ExtraParameters {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string | null;
  values: [string, string][];
}

export interface EmailParameters {
  template: EmailTemplate;
  isImportant: boolean;
  extra: ExtraParameters;
}

/** A parameter the email cannot be made from; `field` names it (Template, IsImportant, ExtraParameters). */
export class EmailParameterError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_EMAIL_TEMPLATE: EmailTemplate = 'Simple';
const MAX_EXTRA_KEYS = 50;
function addresses(text: string, field: string): string[] {
  const list = text
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter(Boolean);
  for (const address of list)
    if (!isEmailAddress(address))
      throw new EmailParameterError(
        'ExtraParameters',
        `"${address}" in ExtraParameters ${field} is not an email address.`,
      );
  return list;
}

/** ExtraParameters' JSON object text, '' or absent for none. */
export function parseExtraParameters(text: string | undefined): ExtraParameters {
  const extra: ExtraParameters = { to: [], cc: [], bcc: [], subject: null, values: [] };
  if (text === undefined || text.trim() === '') return extra;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new EmailParameterError(
      'ExtraParameters',
      'ExtraParameters must be the JSON text of an object, e.g. {"Site": "North"}.',
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new EmailParameterError(
      'ExtraParameters',
      'ExtraParameters must be the JSON text of an object, e.g. {"Site": "North"}.',
    );
  const entries = Object.entries(parsed);
  if (entries.length > MAX_EXTRA_KEYS)
    throw new EmailParameterError('ExtraParameters', `ExtraParameters may hold at most ${MAX_EXTRA_KEYS} entries.`);
  for (const [key, raw] of entries) {
    if (raw === null || raw === undefined) continue;
    const value =
      typeof raw === 'string'
        ? raw
        : typeof raw === 'number' || typeof raw === 'boolean'
          ? String(raw)
          : JSON.stringify(raw);
    switch (key.toLowerCase()) {
      case 'to':
        extra.to.push(...addresses(value, key));
        break;
      case 'cc':
        extra.cc.push(...addresses(value, key));
        break;
      case 'bcc':
        extra.bcc.push(...addresses(value, key));
        break;
      case 'subject':
        extra.subject =
          value
            .replace(/[\r\n]+/g, ' ')
            .trim()
            .slice(0, 400) || null;
        break;
      default:
        extra.values.push([key, value]);
    }
  }
  return extra;
}

const TRUE = ['true', '1', 'yes'];
const FALSE = ['', 'false', '0', 'no'];

/** The Send Email action's parameters as a protocol action, a rule or a user gave them. Template defaults to Simple. */
export function parseEmailParameters(parameters: Readonly<Record<string, string>>): EmailParameters {
  const templateText = (parameters.Template ?? '').trim();
  const template =
    templateText === ''
      ? DEFAULT_EMAIL_TEMPLATE
      : EMAIL_TEMPLATES.find((name) => name.toLowerCase() === templateText.toLowerCase());
  if (!template)
    throw new EmailParameterError(
      'Template',
      `Template "${templateText}" is not one of ${EMAIL_TEMPLATES.join(', ')}.`,
    );
  const important = (parameters.IsImportant ?? '').trim().toLowerCase();
  if (!TRUE.includes(important) && !FALSE.includes(important))
    throw new EmailParameterError('IsImportant', 'IsImportant must be true or false.');
  return { template, isImportant: TRUE.includes(important), extra: parseExtraParameters(parameters.ExtraParameters) };
}

/**
 * `parseEmailParameters` for a caller that answers a bad parameter its own way: `refuse` turns the
 * EmailParameterError into the error thrown (the preview's 400, the action's failure).
 */
export function parseEmailParametersOr(
  parameters: Readonly<Record<string, string>>,
  refuse: (error: EmailParameterError) => Error,
): EmailParameters {
  try {
    return parseEmailParameters(parameters);
  } catch (error) {
    if (error instanceof EmailParameterError) throw refuse(error);
    throw error;
  }
}

/** What the templates say about the email's subject, whatever it is. */
interface Topic {
  /** In a sentence: "work unit #12", "rule "CPU high"", "the sample work unit". */
  ref: string;
  /** Before a subject's title: "Work unit #12". */
  subjectRef: string;
  title: string;
  facts: [string, string][];
  description: string | null;
  resolution: string | null;
  link: { href: string; label: string } | null;
  greeting: string;
}

function topicOf(context: EmailContext, template: EmailTemplate): Topic {
  const tenant: [string, string] = ['Tenant', context.tenant.name];
  const { workUnit: unit, ruleMatch: match } = context;
  if (unit) {
    return {
      ref: context.test ? 'the sample work unit' : `work unit #${unit.workUnitId}`,
      subjectRef: context.test ? 'Sample work unit' : `Work unit #${unit.workUnitId}`,
      title: unit.title,
      facts: [
        ['Work unit', `#${unit.workUnitId}`],
        ['Title', unit.title],
        tenant,
        ['Severity', SEVERITY_LABELS[unit.severityId] ?? String(unit.severityId)],
        ['State', STATE_LABELS[unit.stateId] ?? String(unit.stateId)],
        ...(unit.stakeholderName ? [['Stakeholder', unit.stakeholderName] as [string, string]] : []),
        ['Created', utcMinute(unit.created)],
      ],
      description: unit.description,
      resolution: unit.resolution,
      link: context.test ? null : { href: unit.link, label: `Open work unit #${unit.workUnitId} in the portal` },
      greeting: unit.stakeholderName ? `Hello ${unit.stakeholderName},` : 'Hello,',
    };
  }
  // A repeat reads as a reminder: its number in the title, how long the match has been open, and why.
  const reminder = match?.repeat ? { prefix: `Reminder ${match.repeat}: `, since: utcMinute(match.since) } : null;
  const reminderFacts: [string, string][] = reminder ? [['Open since', reminder.since]] : [];
  const reminderText = match?.repeat
    ? ` Nobody has acknowledged it yet: this is reminder ${match.repeat}, sent until someone does or it closes.`
    : '';
  if (match?.group) {
    const { group } = match;
    const what = `${GROUP_BY_LABELS[group.by]} "${group.name}"`;
    const named = group.matches.slice(0, GROUP_SUBJECTS_NAMED).map((each) => {
      const subject = each.label ? `${each.label} (${each.subjectId})` : each.subjectId;
      return group.by === 'rule' ? subject : `${subject}: ${each.ruleName}`;
    });
    const more = group.count - named.length;
    return {
      ref: `${group.count} matches of ${what}`,
      subjectRef: what,
      title: `${reminder?.prefix ?? ''}${group.name}: ${group.count} matches`,
      facts: [
        ['Grouped by', GROUP_BY_LABELS[group.by]],
        [GROUP_BY_LABELS[group.by], group.name],
        ['Matches', String(group.count)],
        tenant,
        ['Event', 'Matched'],
        ['When', utcMinute(match.when)],
        ...reminderFacts,
        ['Subjects', `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`],
      ],
      description: `${group.count} matches of ${what} opened together; this one notification tells of all of them.${reminderText}`,
      resolution: null,
      link: null,
      greeting: 'Hello,',
    };
  }
  if (match) {
    const subject = match.label ? `${match.label} (${match.subjectId})` : match.subjectId;
    return {
      ref: `rule "${match.ruleName}"`,
      subjectRef: `Rule "${match.ruleName}"`,
      title: `${reminder?.prefix ?? ''}${match.ruleName}: ${match.label ?? match.subjectId}`,
      facts: [
        ['Rule', match.ruleName],
        ['Subject', subject],
        tenant,
        ['Event', match.phase === 'match' ? 'Matched' : 'Match closed'],
        ['When', utcMinute(match.when)],
        ...reminderFacts,
      ],
      description: `Rule "${match.ruleName}" ${match.phase === 'match' ? 'matched' : 'stopped matching'} ${subject}.${reminderText}`,
      resolution: null,
      link: null,
      greeting: 'Hello,',
    };
  }
  return {
    ref: 'this test',
    subjectRef: 'Test',
    title: 'Test of the Send Email action',
    facts: [tenant, ['Template', template], ['Requested by', context.test?.triggeredBy ?? 'unknown']],
    description: 'This is a test message from the action catalogue. No work unit or rule is involved.',
    resolution: null,
    link: null,
    greeting: 'Hello,',
  };
}

interface Content {
  subject: string;
  heading: string | null;
  paragraphs: string[];
  /** Whether the topic's facts, description and link are shown. */
  details: boolean;
}

/** The wording of each template. */
const TEMPLATES: Record<EmailTemplate, (topic: Topic) => Content> = {
  AllClear: (t) => ({
    subject: `All clear: ${t.title}`,
    heading: 'All clear',
    paragraphs: [
      t.greeting,
      `The issue reported in ${t.ref} no longer needs attention. No further action is required on your part.`,
    ],
    details: true,
  }),
  CfsInternalWuCommNotification: (t) => ({
    subject: `Internal notification: ${t.title}`,
    heading: 'Internal notification',
    paragraphs: [`There is news about ${t.ref} for the team to review.`],
    details: true,
  }),
  Detailed: (t) => ({
    subject: `${t.subjectRef}: ${t.title}`,
    heading: t.title,
    paragraphs: [t.greeting, `Here are the current details of ${t.ref}.`],
    details: true,
  }),
  GeneralAlert: (t) => ({
    subject: `Alert: ${t.title}`,
    heading: 'Service alert',
    paragraphs: [
      t.greeting,
      `We are aware of an issue (${t.ref}) that may affect your service and are working on it. We will let you know when it is resolved.`,
    ],
    details: true,
  }),
  None: () => ({ subject: 'Message from CFS Portal', heading: null, paragraphs: [], details: false }),
  Rule: (t) => ({
    subject: `Rule notification: ${t.title}`,
    heading: 'Rule notification',
    paragraphs: [`An automated rule raised a notification about ${t.ref}.`],
    details: true,
  }),
  Simple: (t) => ({
    subject: `${t.subjectRef}: ${t.title}`,
    heading: null,
    paragraphs: [t.greeting, `This is an update about ${t.ref}: ${t.title}.`],
    details: false,
  }),
  SOCAlert: (t) => ({
    subject: `SOC alert: ${t.title}`,
    heading: 'Security operations alert',
    paragraphs: [`Security operations: please review ${t.ref} and act according to the runbook.`],
    details: true,
  }),
  ResolutionCenterCreated: (t) => ({
    subject: `We received your request: ${t.title}`,
    heading: 'We received your request',
    paragraphs: [
      t.greeting,
      `Thank you for contacting us. Your request has been recorded as ${t.ref} and our team will look into it. We will keep you informed of its progress.`,
    ],
    details: true,
  }),
  ResolutionCenterResolved: (t) => ({
    subject: `Your request has been resolved: ${t.title}`,
    heading: 'Your request has been resolved',
    paragraphs: [
      t.greeting,
      `We have resolved ${t.ref}. If the issue comes back, reply to this email or open a new request in the Resolution Center.`,
    ],
    details: true,
  }),
};

type Audience = 'stakeholderCcInternal' | 'stakeholder' | 'internal' | 'none';
const AUDIENCES: Record<EmailTemplate, Audience> = {
  AllClear: 'stakeholderCcInternal',
  CfsInternalWuCommNotification: 'internal',
  Detailed: 'stakeholderCcInternal',
  GeneralAlert: 'stakeholderCcInternal',
  None: 'none',
  Rule: 'internal',
  Simple: 'stakeholder',
  SOCAlert: 'internal',
  ResolutionCenterCreated: 'stakeholder',
  ResolutionCenterResolved: 'stakeholder',
};

function recipients(context: EmailContext, parameters: EmailParameters): Pick<RenderedEmail, 'to' | 'cc' | 'bcc'> {
  const audience = AUDIENCES[parameters.template];
  const internal = context.tenant.internalAddress?.trim() || null;
  const stakeholder = context.workUnit?.stakeholderEmail?.trim() || null;
  const to: string[] = [];
  const cc: string[] = [];
  if (audience === 'internal' && internal) to.push(internal);
  if (audience === 'stakeholder' || audience === 'stakeholderCcInternal') {
    if (stakeholder) to.push(stakeholder);
    else if (internal) to.push(internal);
    if (audience === 'stakeholderCcInternal' && stakeholder && internal) cc.push(internal);
  }
  const { extra } = parameters;
  // One address once: To before Cc before Bcc.
  const seen = new Set<string>();
  const unique = (list: string[]) =>
    list.filter((address) => {
      const key = address.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return {
    to: unique([...to, ...extra.to]).join(', '),
    cc: unique([...cc, ...extra.cc]).join(', '),
    bcc: unique(extra.bcc).join(', '),
  };
}

/** Renders one email: recipients by template, subject (with IsImportant's prefix), HTML body with every value escaped. */
export function renderEmail(context: EmailContext, parameters: EmailParameters): RenderedEmail {
  const topic = topicOf(context, parameters.template);
  const content = TEMPLATES[parameters.template](topic);
  const subject =
    `${context.test ? '[Test] ' : ''}${parameters.isImportant ? '[Important] ' : ''}${parameters.extra.subject ?? content.subject}`.slice(
      0,
      500,
    );
  const parts: string[] = [headerHtml(context.tenant.name)];
  if (context.test)
    parts.push(
      `<p style="margin:0 0 16px;padding:8px 12px;background:#fff8e1;border-radius:4px">${escapeHtml(`A test message from the action catalogue, requested by ${context.test.triggeredBy}: the ${parameters.template} template as it looks for a sample work unit.`)}</p>`,
    );
  if (parameters.isImportant) parts.push('<p style="margin:0 0 12px;color:#c62828;font-weight:700">Important</p>');
  if (content.heading) parts.push(headingHtml(content.heading));
  parts.push(...content.paragraphs.map(paragraphHtml));
  if (content.details) {
    parts.push(tableHtml(topic.facts));
    if (topic.description) parts.push(subheadingHtml('Description'), paragraphHtml(topic.description));
    if (topic.resolution && parameters.template !== 'ResolutionCenterCreated')
      parts.push(subheadingHtml('Resolution'), paragraphHtml(topic.resolution));
  }
  if (context.summary && parameters.template !== 'None')
    parts.push(subheadingHtml('Note'), paragraphHtml(context.summary));
  if (parameters.extra.values.length > 0) {
    if (parameters.template !== 'None') parts.push(subheadingHtml('Additional details'));
    parts.push(tableHtml(parameters.extra.values));
  }
  if (topic.link && parameters.template !== 'None') parts.push(linkHtml(topic.link.href, topic.link.label));
  parts.push(footerHtml());
  const body = emailDocument(subject, parts);
  return { ...recipients(context, parameters), subject, body };
}
