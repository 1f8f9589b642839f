import type { ReactElement } from 'react';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AssessmentIcon from '@mui/icons-material/Assessment';
import AssignmentIcon from '@mui/icons-material/Assignment';
import BoltIcon from '@mui/icons-material/Bolt';
import BusinessIcon from '@mui/icons-material/Business';
import CampaignIcon from '@mui/icons-material/Campaign';
import CategoryIcon from '@mui/icons-material/Category';
import DevicesIcon from '@mui/icons-material/Devices';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import KeyIcon from '@mui/icons-material/Key';
import OutboxIcon from '@mui/icons-material/Outbox';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import PlaceIcon from '@mui/icons-material/Place';
import RuleIcon from '@mui/icons-material/Rule';
import ViewModuleIcon from '@mui/icons-material/ViewModule';

/** An icon per menu item, keyed by the item's path. */
export const MENU_ICONS: Record<string, ReactElement> = {
  workunitsv2: <AssignmentIcon />,
  workunitcommunications: <CampaignIcon />,
  devices: <DevicesIcon />,
  blocks: <ViewModuleIcon />,
  rules: <RuleIcon />,
  compliance: <FactCheckIcon />,
  tenants: <BusinessIcon />,
  locations: <PlaceIcon />,
  packages: <Inventory2Icon />,
  protocols: <AccountTreeIcon />,
  actioncatalog: <BoltIcon />,
  pendingdevices: <PendingActionsIcon />,
  tokens: <KeyIcon />,
  workunitsettings: <CategoryIcon />,
  versionreport: <AssessmentIcon />,
  outbox: <OutboxIcon />,
};
