/** The agent's version, sent when it enrols (the portal shows it on the device). */
export const AGENT_VERSION = '0.1.0';
