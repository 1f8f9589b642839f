import Box, { type BoxProps } from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

export interface FullPageStatusProps {
  message: string;
  /** With a retry action the status is a failure: no spinner, a Try again button. */
  onRetry?: () => void;
}

/** The whole screen, what it holds in a column at its centre (a status, the page-not-found page). */
export function FullPageCentre({ sx, ...rest }: BoxProps) {
  return (
    <Box
      {...rest}
      sx={[
        {
          minHeight: '100vh',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 2,
          p: 3,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    />
  );
}

/** A whole-screen waiting or failure message (loading, signing in, signing out). */
export function FullPageStatus({ message, onRetry }: FullPageStatusProps) {
  return (
    <FullPageCentre role="status">
      {onRetry ? null : <CircularProgress size={32} />}
      <Typography color="text.secondary">{message}</Typography>
      {onRetry ? (
        <Button variant="outlined" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </FullPageCentre>
  );
}
