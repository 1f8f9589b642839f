import type { RJSFSchema } from '@rjsf/utils';
import type { WorkUnitFields } from '@cfs/contracts/work-units';
import { SEVERITIES, TEXT_MAX, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';

/**
 * The intake wizard built from a tenant's stored JSON Schema (spec 001 §2 "Intake drawer"): its
 * steps, and the Intake work unit its answers make.
 */

export type Answers = Record<string, unknown>;

export interface IntakeStep {
  /** The top-level property the step's answers sit under; null for the schema's own fields. */
  key: string | null;
  title: string;
  /** The step's form: the section's schema, with the root's definitions for its `$ref`s. */
  schema: RJSFSchema;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The stored text as a schema object; null when it is empty or not a JSON object. */
export function parseIntakeSchema(text: string): RJSFSchema | null {
  if (!text.trim()) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? (parsed as RJSFSchema) : null;
  } catch {
    return null;
  }
}

/** A top-level property that is an object with properties of its own is a section: a step of the wizard. */
function isSection(definition: unknown): definition is RJSFSchema & { properties: Record<string, unknown> } {
  return (
    isObject(definition) &&
    (definition.type === 'object' || definition.type === undefined) &&
    isObject(definition.properties) &&
    Object.keys(definition.properties).length > 0
  );
}

/** "startDate" → "Start date": a section without a title still names its step. */
function humanize(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One step per section, in the schema's order; the schema's top-level fields that are no section
 * come first, as one step named by the schema's title. A schema without sections is one step.
 */
export function intakeSteps(schema: RJSFSchema): IntakeStep[] {
  const shared: RJSFSchema = {};
  if (schema.definitions) shared.definitions = schema.definitions;
  if (schema.$defs) shared.$defs = schema.$defs;
  const properties = schema.properties ?? {};
  const sections = Object.entries(properties).filter(([, definition]) => isSection(definition));
  const rootTitle = schema.title?.trim() || 'Intake';
  if (sections.length === 0) return [{ key: null, title: rootTitle, schema }];

  const steps: IntakeStep[] = [];
  const plain = Object.entries(properties).filter(([, definition]) => !isSection(definition));
  if (plain.length) {
    const names = new Set(plain.map(([name]) => name));
    steps.push({
      key: null,
      title: rootTitle,
      schema: {
        ...shared,
        type: 'object',
        properties: Object.fromEntries(plain),
        required: (schema.required ?? []).filter((name) => names.has(name)),
      },
    });
  }
  for (const [key, definition] of sections) {
    const section = definition as RJSFSchema;
    steps.push({
      key,
      title: section.title?.trim() || humanize(key),
      schema: { ...shared, ...section, type: 'object' },
    });
  }
  return steps;
}

/** The answers of one step: a section's own object, or the schema's top-level fields. */
export function stepAnswers(step: IntakeStep, answers: Answers): Answers {
  if (step.key !== null) {
    const section = answers[step.key];
    return isObject(section) ? section : {};
  }
  const names = Object.keys(step.schema.properties ?? {});
  return Object.fromEntries(Object.entries(answers).filter(([name]) => names.includes(name)));
}

/** The answers with one step's replaced; a field cleared in the step is dropped. */
export function withStepAnswers(step: IntakeStep, answers: Answers, values: Answers): Answers {
  if (step.key !== null) return { ...answers, [step.key]: values };
  const names = Object.keys(step.schema.properties ?? {});
  const kept = Object.fromEntries(Object.entries(answers).filter(([name]) => !names.includes(name)));
  return { ...kept, ...values };
}

/** A text answer named `title`, at the top or in a section: the requester's own title for the unit. */
function titleAnswer(answers: Answers): string | undefined {
  const candidates = [
    answers.title,
    ...Object.values(answers).map((value) => (isObject(value) ? value.title : undefined)),
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim().length >= 3) return candidate.trim();
  }
  return undefined;
}

function display(value: unknown): string {
  if (Array.isArray(value)) return value.map(display).join(', ');
  if (isObject(value)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** "Full name: Jane Doe" lines under each step's title, for staff reading the unit. */
function describe(steps: IntakeStep[], answers: Answers): string {
  const blocks = steps.map((step) => {
    const values = stepAnswers(step, answers);
    const lines = Object.entries(step.schema.properties ?? {}).flatMap(([name, definition]) => {
      const value = values[name];
      if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return [];
      const label =
        (isObject(definition) && typeof definition.title === 'string' && definition.title) || humanize(name);
      return [`${label}: ${display(value)}`];
    });
    return lines.length ? [step.title, ...lines].join('\n') : '';
  });
  const text = blocks.filter(Boolean).join('\n\n');
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}

/** Sev3, as the other requests people file (the Resolution Center's, the access request's: spec 001 §9). */
export const INTAKE_SEVERITY = SEVERITIES.Sev3;
export const INTAKE_SOURCE = 'Intake';
const TITLE_MAX = 400;

/**
 * The Intake work unit the answers make: titled by a `title` answer when the schema asks for one,
 * else "{schema title}: {tenant}"; New, Sev3; the answers as JSON in `properties` and, readable,
 * in the description.
 */
export function intakeWorkUnit(
  schema: RJSFSchema,
  answers: Answers,
  tenant: { tenantId: string; name: string },
): WorkUnitFields {
  const title = titleAnswer(answers) ?? `${schema.title?.trim() || 'Intake'}: ${tenant.name}`;
  return {
    title: title.slice(0, TITLE_MAX),
    description: describe(intakeSteps(schema), answers) || null,
    severityId: INTAKE_SEVERITY,
    stateId: WORK_UNIT_STATES.New,
    workUnitTypeId: WORK_UNIT_TYPES.Intake,
    tenantId: tenant.tenantId,
    source: INTAKE_SOURCE,
    properties: JSON.stringify(answers),
  };
}

/** Whether anything has been answered: a value that is no empty text, list or section. */
export function hasAnswers(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.some(hasAnswers);
  if (isObject(value)) return Object.values(value).some(hasAnswers);
  return true;
}
