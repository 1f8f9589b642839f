/** A version compiled into a release's bundle (`build-agent-executables.mjs --release VERSION`). */
declare const CFS_AGENT_BUILD_VERSION: string | undefined;

/** The agent's version, told to the portal at enrolment and at the start of each session (agent updates). */
export const AGENT_VERSION: string = typeof CFS_AGENT_BUILD_VERSION === 'string' ? CFS_AGENT_BUILD_VERSION : '0.1.0';
