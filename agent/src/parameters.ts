import type { AgentParameter, RUNTIME_CONFIG_KEYS } from '@cfs/contracts/agent';

export type RuntimeConfig = Record<(typeof RUNTIME_CONFIG_KEYS)[number], string>;

/**
 * An operation's parameters by name, as the operation sees them (spec 002 §3 Parameter source):
 * PortalEntry and SecuredValue as the portal sent them (a secured value already decrypted for
 * this device), EnvironmentVariable from this machine's environment, RuntimeConfig from the
 * agent's own facts (machine name, device id…).
 */
export function resolveParameters(
  parameters: readonly AgentParameter[],
  runtime: RuntimeConfig,
  env: NodeJS.ProcessEnv = process.env,
): Map<string, string | undefined> {
  const resolved = new Map<string, string | undefined>();
  for (const parameter of parameters) {
    const value = parameter.value ?? undefined;
    switch (parameter.source) {
      case 'EnvironmentVariable':
        resolved.set(parameter.name, value === undefined ? undefined : env[value]);
        break;
      case 'RuntimeConfig':
        resolved.set(
          parameter.name,
          value !== undefined && Object.hasOwn(runtime, value) ? runtime[value as keyof RuntimeConfig] : undefined,
        );
        break;
      default:
        resolved.set(parameter.name, value);
    }
  }
  return resolved;
}

/** A parameter by name, case-insensitively (operations are configured by people). */
export function parameter(parameters: ReadonlyMap<string, string | undefined>, ...names: string[]): string | undefined {
  for (const name of names) {
    for (const [key, value] of parameters)
      if (key.toLowerCase() === name.toLowerCase() && value !== undefined && value !== '') return value;
  }
  return undefined;
}

export function requireParameter(parameters: ReadonlyMap<string, string | undefined>, ...names: string[]): string {
  const value = parameter(parameters, ...names);
  if (value === undefined) throw new Error(`The parameter ${names[0]} is missing`);
  return value;
}

/** The decrypted secured values among an operation's parameters: what it reports must not show them. */
export function securedValues(parameters: readonly AgentParameter[]): string[] {
  return parameters.flatMap((parameter) =>
    parameter.source === 'SecuredValue' && parameter.value ? [parameter.value] : [],
  );
}

/**
 * A text with every secured value (as written, and as it appears in an address) replaced by ***:
 * an operation's detail repeats what it called ("GET https://…?key=…", a failed path), and its
 * packets and logs are read in the portal by people who must not see the tenant's secrets.
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}
