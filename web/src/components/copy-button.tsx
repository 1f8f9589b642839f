import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { COPY_TOOLTIP_MS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { showToast } from '../lib/toast';

export interface CopyButtonProps {
  text: string;
  /** Accessible name of the button. */
  label?: string;
  size?: 'small' | 'medium';
  /** The info toast once copied; "copied to clipboard." unless the spec words it for the item. */
  copiedMessage?: string;
}

/**
 * Copies a text to the clipboard, says "Copied to clipboard" beside the button for 1 s (spec 000
 * §9) and toasts the info message "copied to clipboard." (spec 001 §8).
 *
 * @example
 *   <CopyButton text={generatedToken} label="Copy token" />
 */
export function CopyButton({
  text,
  label = 'Copy',
  size = 'small',
  copiedMessage = SHELL_MESSAGES.copiedInfo,
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_TOOLTIP_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        showToast('info', copiedMessage);
      },
      (error: unknown) => console.error('Copy to clipboard failed', error),
    );
  };

  return (
    <Tooltip
      title={SHELL_MESSAGES.copiedToClipboard}
      open={copied}
      disableHoverListener
      disableFocusListener
      disableTouchListener
      placement="top"
    >
      <IconButton aria-label={label} size={size} onClick={copy}>
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
}
