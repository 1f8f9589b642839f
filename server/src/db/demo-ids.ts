/**
 * Fixed ids so that demo links and scripts stay valid across fresh installs. In a module that imports
 * nothing: the areas' demo rows name them, and the seed, which runs those areas, imports every area.
 */
export const DEMO = {
  contoso: '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b',
  contosoProduction: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
  contosoStaging: '1d2c3b4a-5f6e-4d7c-9b8a-0f1e2d3c4b5a',
  fabrikam: '8e7d6c5b-4a3f-4e2d-8c1b-0a9f8e7d6c5b',
  fabrikamProduction: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  fabrikamLab: '3b4c5d6e-7f8a-4b9c-8d0e-2f3a4b5c6d7e',
  /**
   * The demo agent's entities (its device and its two operations, areas/agent/demo-agent.ts): fixed,
   * so that the demo seed's blocks show them before the agent first starts.
   */
  demoAgentDevice: '4c5d6e7f-8a9b-4c0d-9e1f-3a4b5c6d7e8f',
  demoAgentCpu: '5d6e7f8a-9b0c-4d1e-8f2a-4b5c6d7e8f9a',
  demoAgentHealth: '6e7f8a9b-0c1d-4e2f-9a3b-5c6d7e8f9a0b',
} as const;
