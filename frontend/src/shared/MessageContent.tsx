/**
 * A WhatsApp message's content as the owner sees and hears it (issue 31), in the inbox's bubbles
 * and the Message Hub's cards: a voice note's player with its transcript under it, a photo's
 * thumbnail that opens full size, a document's card (pages, size, Download, what it says), a
 * video's player, a sticker, a shared location (Open in Maps), contact cards (tel: links), the
 * options the agent offered and the one a customer tapped; media still being fetched, or that
 * could not be stored or understood, say so in words. Rules and texts: messageMedia.ts.
 */
import { useId, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseRounded from '@mui/icons-material/CloseRounded';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import DownloadRounded from '@mui/icons-material/DownloadRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import TouchAppOutlined from '@mui/icons-material/TouchAppOutlined';
import { useTranslation } from 'react-i18next';
import type { ConversationMessage, MessageMedia } from '@agentdesk/functions/contract';
import { formatBytes } from './intl';
import { failureText, formatDuration, mapsUrl, shownKind, startsCollapsed, telLink, type ShownKind } from './messageMedia';
import { formatPhone } from './phone';

export type ContentMessage = Pick<ConversationMessage, 'type' | 'fromMe' | 'body' | 'hasMedia' | 'media' | 'location' | 'contactCards' | 'interactive' | 'interactiveReply'>;

/** A caption or body, keeping its line breaks. */
function Text({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  );
}

/** A long text (a transcript, a document's text) collapsed to its start with "Show more". */
function Collapsible({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const long = startsCollapsed(text);
  const [open, setOpen] = useState(false);
  return (
    <Box>
      <Typography
        id={id}
        variant="body2"
        data-testid={testId}
        sx={{
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          ...(long && !open ? { display: '-webkit-box', WebkitLineClamp: 4, WebkitBoxOrient: 'vertical', overflow: 'hidden' } : {}),
        }}
      >
        {text}
      </Typography>
      {long && (
        <Button size="small" color="inherit" aria-expanded={open} aria-controls={id} onClick={() => setOpen((v) => !v)} sx={{ px: 0.5, minWidth: 0, textDecoration: 'underline' }}>
          {open ? t('messageMedia.showLess') : t('messageMedia.showMore')}
        </Button>
      )}
    </Box>
  );
}

/** A small bordered panel inside a bubble (works on the primary-coloured own bubble too). */
function Panel({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ border: 1, borderColor: 'currentColor', borderRadius: 1.5, p: 1, minWidth: 0, opacity: 0.95, '& a': { color: 'inherit' } }}>
      {children}
    </Box>
  );
}

function Failure({ media }: { media: MessageMedia }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'flex-start' }} data-testid="media-failure" data-reason={media.failure ?? ''}>
      <ErrorOutlineRounded fontSize="small" aria-hidden sx={{ mt: '1px' }} />
      <Typography variant="body2">{failureText(media.failure)}</Typography>
    </Stack>
  );
}

function Loading() {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="media-loading" role="status">
      <CircularProgress size={14} color="inherit" aria-hidden />
      <Typography variant="body2">{t('messageMedia.loading')}</Typography>
    </Stack>
  );
}

function Audio({ kind, media, own }: { kind: 'ptt' | 'audio'; media: MessageMedia; own: boolean }) {
  const { t } = useTranslation();
  const name = t(`messageMedia.kinds.${kind}`);
  const duration = formatDuration(media.transcript?.durationSeconds);
  const transcript = media.transcript?.text.trim() ?? '';
  return (
    // A player needs room: 300 px, or the bubble's width on a phone.
    <Stack spacing={0.75} sx={{ width: 300, maxWidth: '100%', minWidth: 0 }} data-testid="media-audio">
      <Typography variant="caption" sx={{ fontWeight: 600 }}>
        {duration ? `${name} · ${duration}` : name}
      </Typography>
      {media.url && (
        <Box
          component="audio"
          controls
          preload="metadata"
          src={media.url}
          aria-label={t(own ? 'messageMedia.playerLabelOwn' : 'messageMedia.playerLabel', { kind: name })}
          sx={{ display: 'block', width: '100%', minWidth: 0, maxWidth: 360, height: 40 }}
        />
      )}
      {transcript && (
        <Box component="section" aria-label={t('messageMedia.transcript')} data-testid="media-transcript">
          <Typography variant="overline" component="h4" sx={{ lineHeight: 1.6, display: 'block' }}>
            {t('messageMedia.transcript')}
          </Typography>
          <Collapsible text={transcript} testId="media-transcript-text" />
          {media.transcript?.truncated && (
            <Typography variant="caption" component="p" sx={{ fontStyle: 'italic' }} data-testid="media-transcript-truncated">
              {t('messageMedia.truncated')}
            </Typography>
          )}
        </Box>
      )}
    </Stack>
  );
}

function Picture({ media, own, sticker }: { media: MessageMedia; own: boolean; sticker: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const alt = sticker ? t('messageMedia.stickerAlt') : media.caption?.trim() || t(own ? 'messageMedia.photoAltOwn' : 'messageMedia.photoAlt');
  if (!media.url) return null;
  const side = sticker ? 120 : 240;
  const image = (
    <Box
      component="img"
      src={media.url}
      alt={alt}
      loading="lazy"
      data-testid={sticker ? 'media-sticker' : 'media-image'}
      sx={{ display: 'block', maxWidth: '100%', width: 'auto', height: 'auto', maxHeight: side, ...(sticker ? { maxWidth: side } : {}), borderRadius: 1, objectFit: 'contain' }}
    />
  );
  if (sticker) return image;
  return (
    <>
      <ButtonBase
        onClick={() => setOpen(true)}
        aria-label={t('messageMedia.openPhoto')}
        aria-haspopup="dialog"
        data-testid="media-image-open"
        sx={{ display: 'block', maxWidth: '100%', borderRadius: 1, '&:focus-visible': { outline: '2px solid', outlineOffset: 2 } }}
      >
        {image}
      </ButtonBase>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth={false} aria-label={alt} data-testid="media-image-dialog">
        {/* The close button on its own bar, never over the photo (a small photo stays whole). */}
        <Box sx={{ bgcolor: 'common.black', color: 'common.white', minWidth: 'min(320px, 92vw)' }}>
          <Stack direction="row" sx={{ justifyContent: 'flex-end', p: 0.5 }}>
            <IconButton onClick={() => setOpen(false)} aria-label={t('messageMedia.closePhoto')} sx={{ color: 'inherit' }}>
              <CloseRounded />
            </IconButton>
          </Stack>
          <Box
            component="img"
            src={media.url}
            alt={alt}
            data-testid="media-image-full"
            sx={{ display: 'block', mx: 'auto', maxWidth: '92vw', maxHeight: 'calc(88vh - 48px)', objectFit: 'contain', pb: 1 }}
          />
        </Box>
      </Dialog>
    </>
  );
}

function Video({ media, own }: { media: MessageMedia; own: boolean }) {
  const { t } = useTranslation();
  if (!media.url) return null;
  return (
    <Box
      component="video"
      controls
      preload="metadata"
      src={media.url}
      aria-label={t(own ? 'messageMedia.playerLabelOwn' : 'messageMedia.playerLabel', { kind: t('messageMedia.kinds.video') })}
      data-testid="media-video"
      sx={{ display: 'block', width: '100%', maxWidth: 360, maxHeight: 320, borderRadius: 1, bgcolor: 'common.black' }}
    />
  );
}

function DocumentCard({ media }: { media: MessageMedia }) {
  const { t, i18n } = useTranslation();
  const name = media.filename?.trim() || t('messageMedia.documentFallback');
  const facts = [media.pages ? t('messageMedia.pages', { count: media.pages }) : '', media.size ? formatBytes(media.size, i18n.language) : ''].filter(Boolean).join(' · ');
  const preview = media.textPreview?.trim() ?? '';
  return (
    <Panel testId="media-document">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <DescriptionOutlined aria-hidden />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="media-document-name">
            {name}
          </Typography>
          {facts && <Typography variant="caption">{facts}</Typography>}
        </Box>
        {media.url && (
          <Button
            size="small"
            variant="outlined"
            color="inherit"
            href={media.url}
            download={media.filename || true}
            startIcon={<DownloadRounded />}
            aria-label={t('messageMedia.downloadLabel', { name })}
            sx={{ flex: 'none' }}
          >
            {t('messageMedia.download')}
          </Button>
        )}
      </Stack>
      {preview && (
        <Box component="section" aria-label={t('messageMedia.documentPreview')} sx={{ mt: 1 }}>
          <Typography variant="overline" component="h4" sx={{ lineHeight: 1.6, display: 'block' }}>
            {t('messageMedia.documentPreview')}
          </Typography>
          <Collapsible text={preview} testId="media-document-preview" />
        </Box>
      )}
    </Panel>
  );
}

function LocationCard({ location }: { location: NonNullable<ContentMessage['location']> }) {
  const { t } = useTranslation();
  const place = location.name?.trim() || location.address?.trim() || `${location.latitude}, ${location.longitude}`;
  return (
    <Panel testId="message-location">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
        <PlaceOutlined aria-hidden />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {location.name?.trim() || t('messageMedia.sharedLocation')}
          </Typography>
          {location.address && (
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {location.address}
            </Typography>
          )}
          <Link href={mapsUrl(location)} target="_blank" rel="noopener noreferrer" variant="body2" aria-label={t('messageMedia.mapsLabel', { place })} data-testid="message-location-maps">
            {t('messageMedia.openInMaps')}
          </Link>
        </Box>
      </Stack>
    </Panel>
  );
}

function ContactCards({ cards }: { cards: NonNullable<ContentMessage['contactCards']> }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={0.75}>
      {cards.map((card, i) => (
        <Panel key={`${card.name}-${i}`} testId="message-contact-card">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
            <PersonOutline aria-hidden />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="caption" component="p">
                {t('messageMedia.contactCard')}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {card.name}
              </Typography>
              {card.phones.map((phone) => {
                const shown = formatPhone(phone);
                const href = telLink(phone);
                return (
                  <Typography key={phone} variant="body2">
                    {href ? (
                      <Link href={href} aria-label={t('messageMedia.call', { phone: shown })}>
                        {shown}
                      </Link>
                    ) : (
                      shown
                    )}
                  </Typography>
                );
              })}
            </Box>
          </Stack>
        </Panel>
      ))}
    </Stack>
  );
}

function Options({ interactive }: { interactive: NonNullable<ContentMessage['interactive']> }) {
  const { t } = useTranslation();
  const heading = interactive.kind === 'buttons' ? t('messageMedia.buttons') : interactive.buttonLabel ? t('messageMedia.list', { label: interactive.buttonLabel }) : t('messageMedia.listFallback');
  return (
    <Box data-testid="message-options" data-kind={interactive.kind}>
      <Typography variant="caption" component="p" sx={{ fontWeight: 600, mb: 0.5 }}>
        {heading}
      </Typography>
      {interactive.kind === 'buttons' ? (
        <Stack direction="row" useFlexGap spacing={0.5} sx={{ flexWrap: 'wrap' }} component="ul" aria-label={heading} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {interactive.options.map((o) => (
            <Box component="li" key={o.id}>
              <Chip size="small" variant="outlined" label={o.title} sx={{ color: 'inherit', borderColor: 'currentColor', maxWidth: '100%' }} />
            </Box>
          ))}
        </Stack>
      ) : (
        <Box component="ol" aria-label={heading} sx={{ m: 0, pl: 2.5 }}>
          {interactive.options.map((o) => (
            <Box component="li" key={o.id}>
              <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
                {o.title}
              </Typography>
              {o.description && (
                <Typography variant="caption" component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                  {o.description}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** The media part of a message: loading, the failure's words, and what could be shown. */
function MediaPart({ kind, media, own }: { kind: ShownKind | null; media: MessageMedia; own: boolean }) {
  const { t } = useTranslation();
  if (media.state === 'pending') return <Loading />;
  const failed = media.state === 'failed' ? <Failure media={media} /> : null;
  let shown: ReactNode = null;
  if (kind === 'ptt' || kind === 'audio') shown = <Audio kind={kind} media={media} own={own} />;
  else if (kind === 'image' || kind === 'sticker') shown = <Picture media={media} own={own} sticker={kind === 'sticker'} />;
  else if (kind === 'video') shown = <Video media={media} own={own} />;
  else if (kind === 'document') shown = <DocumentCard media={media} />;
  // A message from before issue 31 (no copy of ours) or a kind without a player: its kind in words.
  const nothing = !shown || (!media.url && kind !== 'document' && kind !== 'ptt' && kind !== 'audio');
  return (
    <Stack spacing={0.75} sx={{ minWidth: 0 }}>
      {failed}
      {nothing && !failed ? (
        <Typography variant="body2" sx={{ fontStyle: 'italic', opacity: 0.85 }} data-testid="media-kind">
          {kind ? t(`messageMedia.kinds.${kind}`) : t('messageMedia.notAvailable')}
        </Typography>
      ) : (
        shown
      )}
    </Stack>
  );
}

/**
 * Everything a message shows inside its bubble or card. `own`: sent by the business (the bubble is
 * primary-coloured; alt texts say "sent"). `renderText`: how the caller shows the text (the
 * Message Hub clamps it); by default with its line breaks.
 */
export function MessageContent({ message, own, renderText }: { message: ContentMessage; own: boolean; renderText?: (text: string) => ReactNode }) {
  const { t } = useTranslation();
  const kind = shownKind(message.type);
  const body = message.body?.trim() ?? '';
  const tapped = message.interactiveReply;
  // A location's body repeats its card; a tapped option's body is its title (shown as the marker).
  const showBody = body && !message.location && !(tapped && tapped.title.trim() === body);
  const text = (value: string) => (renderText ? renderText(value) : <Text>{value}</Text>);
  return (
    <Stack spacing={0.75} sx={{ minWidth: 0 }}>
      {message.media && <MediaPart kind={kind} media={message.media} own={own} />}
      {!message.media && message.hasMedia && kind && (
        <Typography variant="body2" sx={{ fontStyle: 'italic', opacity: 0.85 }} data-testid="media-kind">
          {t(`messageMedia.kinds.${kind}`)}
        </Typography>
      )}
      {message.location && <LocationCard location={message.location} />}
      {message.contactCards && message.contactCards.length > 0 && <ContactCards cards={message.contactCards} />}
      {tapped && (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }} data-testid="message-tapped">
          <TouchAppOutlined fontSize="small" aria-hidden />
          <Typography variant="body2" sx={{ fontStyle: 'italic', overflowWrap: 'anywhere' }}>
            {t('messageMedia.tapped', { title: tapped.title })}
          </Typography>
        </Stack>
      )}
      {showBody && text(body)}
      {message.interactive && message.interactive.options.length > 0 && <Options interactive={message.interactive} />}
    </Stack>
  );
}
