import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { DRAWER_WIDE_WIDTH } from '@cfs/contracts/constants';
import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import { RULE_MATCH_LIST } from '@cfs/contracts/rule-matches';
import { RuleMatchesTable } from '../../components/rule-matches-table';
import { SideDrawer } from '../../components/side-drawer';
import { guidLiteral } from '@cfs/contracts/values/odata';
import { useRule } from './api';

/** A rule's matches (spec 002 §2, §9): 100 a page, latest expiry first, refreshed every 30 s; `?ruleMatchesId=`. */
export default function RuleMatchesDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const rule = useRule(id);
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      width={DRAWER_WIDE_WIDTH}
      title={`Rule Matches${rule.data ? `: ${rule.data.name}` : ''}`}
    >
      {rule.isPending && <LinearProgress />}
      {rule.isError && <Typography color="text.secondary">This rule does not exist.</Typography>}
      {rule.data && (
        <RuleMatchesTable
          filter={`ruleId eq ${guidLiteral(rule.data.ruleId)}`}
          pageSize={MONITORING_LIMITS.ruleMatchesPageSize}
          orderBy={RULE_MATCH_LIST.drawerOrderBy}
          hideRule
          label={`Matches of ${rule.data.name}`}
        />
      )}
    </SideDrawer>
  );
}
