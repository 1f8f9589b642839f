import path from 'node:path';

/** The Windows tools the agent runs: the Task Scheduler's, the file rights', and PowerShell. */
export type WindowsTool = 'schtasks' | 'icacls' | 'powershell' | 'taskkill';

const TOOL_PATHS: Readonly<Record<WindowsTool, readonly string[]>> = {
  schtasks: ['schtasks.exe'],
  icacls: ['icacls.exe'],
  powershell: ['WindowsPowerShell', 'v1.0', 'powershell.exe'],
  taskkill: ['taskkill.exe'],
};

/**
 * A Windows tool by its full path under System32: a bare name is looked for in the program's and
 * the current folder first, which an elevated installer run from a downloads folder, or a script's
 * working folder, must not trust.
 */
export function windowsTool(name: WindowsTool, env: NodeJS.ProcessEnv = process.env): string {
  return path.win32.join(env.SystemRoot ?? 'C:\\Windows', 'System32', ...TOOL_PATHS[name]);
}
