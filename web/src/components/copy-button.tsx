import { useEffect, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { COPY_TOOLTIP_MS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';

export interface CopyButtonProps {
  text: string;
  /** Accessible name of the button. */
  label?: string;
  size?: 'small' | 'medium';
}

/**
 * Copies a text to the clipboard and says "Copied to clipboard" for 1 s (spec 000 §9).
 *
 * @example
 *   <CopyButton text={generatedToken} label="Copy token" />
 */
export function CopyButton({ text, label = 'Copy', size = 'small' }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_TOOLTIP_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      (error: unknown) => console.error('Copy to clipboard failed', error),
    );
  };

  return (
    <Tooltip title={SHELL_MESSAGES.copiedToClipboard} open={copied} disableHoverListener disableFocusListener disableTouchListener placement="top">
      <IconButton aria-label={label} size={size} onClick={copy}>
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
}
