import { useId, useState } from 'react';
import LogoutIcon from '@mui/icons-material/Logout';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { PROFILE_POPUP_WIDTH_PX } from '@cfs/contracts/constants';
import { useCurrentUser, useSessionSubject } from '../auth/session-data';
import { useLogout } from '../auth/use-logout';
import { initials } from './initials';
import { useCurrentUserPhoto } from './shell-api';

/** Avatar (photo, else the first two initials) opening a 290 px popup with the user and Log out (spec 000 §1). */
export function ProfileMenu() {
  const user = useCurrentUser();
  const photo = useCurrentUserPhoto(useSessionSubject());
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popupId = useId();
  const avatar = (size: number) => (
    <Avatar
      src={photo}
      alt={user.name}
      sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: 'secondary.main' }}
    >
      {initials(user.name)}
    </Avatar>
  );
  return (
    <>
      <Tooltip title="Profile">
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label="Profile"
          aria-haspopup="dialog"
          aria-controls={anchor ? popupId : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          size="small"
        >
          {avatar(34)}
        </IconButton>
      </Tooltip>
      <Popover
        id={popupId}
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: PROFILE_POPUP_WIDTH_PX } } }}
      >
        <Box sx={{ p: 2, display: 'flex', gap: 1.5, alignItems: 'center' }}>
          {avatar(48)}
          <Box sx={{ minWidth: 0 }}>
            <Typography noWrap sx={{ fontWeight: 600 }}>
              {user.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {user.userName}
            </Typography>
          </Box>
        </Box>
        <Divider />
        <Box sx={{ p: 1.5, display: 'flex', justifyContent: 'flex-end' }}>
          <Button startIcon={<LogoutIcon />} onClick={() => void logout()}>
            Log out
          </Button>
        </Box>
      </Popover>
    </>
  );
}
