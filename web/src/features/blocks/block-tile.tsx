import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import DoneIcon from '@mui/icons-material/Done';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import { BLOCK_MESSAGES, BLOCK_TYPE_LABELS } from '@cfs/contracts/blocks';
import { formatPacketValue } from '../../components/packet-view';
import { formatDateTime, formatRelative } from '../../lib/dates';
import type { BlockRow, PacketRow, TileMatchState } from './api';
import { tileColors } from './block-colors';

/**
 * One block as a tile (spec 002 §2 Blocks): its name, the Value of its entity's latest packet
 * and when it was reported, on the entity's colour with text that reads on it; 'No packet for
 * this entity.' until a packet exists. The whole tile opens the block.
 */
export function BlockTile({
  block,
  packet,
  matches,
  packetsLoaded,
  now,
  href,
  onOpen,
}: {
  block: BlockRow;
  packet: PacketRow | undefined;
  /** Its entity's open matches: acknowledged by someone, silenced until (none: neither). */
  matches?: TileMatchState | undefined;
  packetsLoaded: boolean;
  now: number;
  href: string;
  onOpen: () => void;
}) {
  const colors = tileColors(block.entityColor?.color);
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={block.name}
      data-testid="block-tile"
      data-color={colors?.name ?? ''}
      sx={{
        height: '100%',
        ...(colors ? { bgcolor: colors.background, color: colors.text, borderColor: colors.background } : {}),
      }}
    >
      <CardActionArea
        href={href}
        onClick={(event) => {
          if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          onOpen();
        }}
        sx={{
          height: '100%',
          p: 2,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'stretch',
          justifyContent: 'space-between',
          gap: 1,
        }}
      >
        <Box>
          <Typography
            variant="subtitle1"
            component="h2"
            sx={{ fontWeight: 600, lineHeight: 1.3, wordBreak: 'break-word' }}
          >
            {block.name}
          </Typography>
          <Typography variant="caption" sx={{ opacity: 0.8 }}>
            {BLOCK_TYPE_LABELS[block.blockTypeId] ?? ''}
          </Typography>
          {(matches?.acknowledgedBy || matches?.silencedUntil) && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
              {matches.acknowledgedBy && (
                <Typography variant="caption" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <DoneIcon sx={{ fontSize: '1rem' }} aria-hidden />
                  Acknowledged by {matches.acknowledgedBy}
                </Typography>
              )}
              {matches.silencedUntil && (
                <Typography
                  variant="caption"
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                  title={formatDateTime(matches.silencedUntil)}
                >
                  <NotificationsOffIcon sx={{ fontSize: '1rem' }} aria-hidden />
                  Silenced until {formatDateTime(matches.silencedUntil)}
                </Typography>
              )}
            </Box>
          )}
        </Box>
        {packet ? (
          <>
            <Typography
              variant="h4"
              component="p"
              data-testid="block-value"
              sx={{
                fontVariantNumeric: 'tabular-nums',
                wordBreak: 'break-word',
                fontSize: { xs: '1.6rem', sm: '2rem' },
              }}
            >
              {formatPacketValue(packet.message.Value)}
            </Typography>
            <Typography variant="caption" sx={{ opacity: 0.85 }} title={formatDateTime(packet.timestamp)}>
              {formatRelative(packet.timestamp, now) || formatDateTime(packet.timestamp)}
            </Typography>
          </>
        ) : (
          <Typography variant="body2" sx={{ opacity: 0.8 }}>
            {packetsLoaded ? BLOCK_MESSAGES.noPacket : ' '}
          </Typography>
        )}
      </CardActionArea>
    </Card>
  );
}
