import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { RUN_PLACEHOLDERS } from '@cfs/contracts/action-parameters';
import { SECRET_PLACEHOLDER_PREFIX } from '@cfs/contracts/action-definitions';

export type RunKind = 'protocol' | 'rule' | 'test';

const HEADINGS: Record<'any' | RunKind, string> = {
  any: 'Every run',
  protocol: 'A protocol step on a work unit',
  rule: 'A rule match or expiration',
  test: 'A test from the catalogue',
};

/**
 * The placeholders a run fills (the contracts' one list, which the runner fills), for the kinds of
 * run an action may have: shown beside the fields that may hold them.
 *
 * @example
 *   <RunPlaceholders kinds={['protocol']} />
 */
export function RunPlaceholders({ kinds }: { kinds: readonly RunKind[] }) {
  const groups = (['any', ...kinds] as const).map((kind) => ({ kind, names: RUN_PLACEHOLDERS[kind] }));
  return (
    <Box
      component="section"
      aria-label="Placeholders"
      sx={{ mt: 1, mb: 1, p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }}
    >
      <Typography variant="caption" component="p" color="text.secondary" sx={{ mb: 0.5 }}>
        Placeholders (case-sensitive) a run fills, besides its parameters and {`{${SECRET_PLACEHOLDER_PREFIX}Name}`} for
        the tenant's secret:
      </Typography>
      {groups.map(({ kind, names }) => (
        <Typography key={kind} variant="caption" component="p" data-testid={`placeholders-${kind}`}>
          <strong>{HEADINGS[kind]}:</strong>{' '}
          <span style={{ fontFamily: 'monospace' }}>{names.map((name) => `{${name}}`).join(' ')}</span>
          {kind === 'protocol' && ' and every other field of the work unit ({CustomValue1}…)'}
          {kind === 'rule' && ' and the entity’s latest packet ({Value}, {Metrics.Name}…)'}
        </Typography>
      ))}
    </Box>
  );
}
