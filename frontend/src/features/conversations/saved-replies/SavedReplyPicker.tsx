/**
 * The reply box's `/` list (issue 17): the saved replies whose title matches what follows the `/`
 * (accent- and case-insensitive), above the box. A listbox the text box controls
 * (aria-activedescendant): ↑/↓ move, Enter or a click inserts, Escape closes. The keyboard and
 * state live in useSavedReplyShortcut; this renders them.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SavedReply } from '@agentdesk/functions/contract';
import './i18n';
import { useSavedReplies } from './api';
import { insertSavedReply, matchSavedReplies, slashTrigger, type SlashTrigger } from './match';

interface ShortcutInput {
  draft: string;
  setDraft: (text: string) => void;
  /** The text box, to read and place the caret. */
  input: () => HTMLTextAreaElement | HTMLInputElement | null;
  /** False while the box cannot be typed in (the list is not loaded then). */
  enabled: boolean;
}

export function useSavedReplyShortcut({ draft, setDraft, input, enabled }: ShortcutInput) {
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  // The `/` the user closed with Escape: stays closed until another `/` is typed.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const replies = useSavedReplies(enabled);

  const trigger: SlashTrigger | null = enabled ? slashTrigger(draft, Math.min(caret, draft.length)) : null;
  const open = trigger !== null && trigger.start !== dismissed;
  const matches = open && trigger ? matchSavedReplies(replies.data ?? [], trigger.query) : [];
  const activeIndex = Math.min(active, Math.max(matches.length - 1, 0));

  const syncCaret = () => setCaret(input()?.selectionStart ?? draft.length);

  const pick = (reply: SavedReply) => {
    if (!trigger) return;
    const next = insertSavedReply(draft, trigger, reply.text);
    setDraft(next.text);
    setCaret(next.caret);
    setActive(0);
    // After React wrote the new value: the caret right after the inserted text.
    requestAnimationFrame(() => {
      const el = input();
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  /** Handles the list's keys; true when the key was used (the caller then skips its own handling). */
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === 'Escape') {
      // Only the list closes, not the dialog around the box.
      e.preventDefault();
      e.stopPropagation();
      setDismissed(trigger?.start ?? null);
      return true;
    }
    if (matches.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + matches.length) % matches.length);
      return true;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      const reply = matches[activeIndex];
      if (reply) pick(reply);
      return true;
    }
    return false;
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  return {
    open,
    listId,
    matches,
    activeIndex,
    query: trigger?.query ?? '',
    loading: replies.isPending,
    hasAny: (replies.data?.length ?? 0) > 0,
    optionId,
    pick,
    setActive,
    onKeyDown,
    /** Call on change, click and key-up: the list follows the caret. */
    syncCaret,
    onChange: (text: string, caretAt: number | null) => {
      setDraft(text);
      setCaret(caretAt ?? text.length);
      setActive(0);
      if (dismissed !== null && slashTrigger(text, caretAt ?? text.length)?.start !== dismissed) setDismissed(null);
    },
    /** ARIA of the text box that controls the list. */
    inputAria: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open && matches.length > 0 ? optionId(activeIndex) : undefined,
    },
  };
}

export type SavedReplyShortcut = ReturnType<typeof useSavedReplyShortcut>;

/** The list itself, placed above the reply box (position the parent relatively). */
export function SavedReplyPicker({ shortcut }: { shortcut: SavedReplyShortcut }) {
  const { t } = useTranslation();
  if (!shortcut.open) return null;
  const { matches, activeIndex } = shortcut;
  return (
    <Paper
      elevation={8}
      sx={{ position: 'absolute', left: 0, right: 0, bottom: '100%', mb: 0.5, zIndex: 2, maxHeight: 260, overflowY: 'auto' }}
      data-testid="saved-reply-picker"
    >
      {matches.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 1.5 }} role="status">
          {shortcut.loading ? t('savedReplies.loading') : shortcut.hasAny ? t('savedReplies.picker.none', { query: shortcut.query }) : t('savedReplies.picker.noneYet')}
        </Typography>
      ) : (
        <Box component="ul" role="listbox" id={shortcut.listId} aria-label={t('savedReplies.picker.label')} sx={{ listStyle: 'none', m: 0, p: 0.5 }}>
          {matches.map((reply, index) => (
            <Box
              component="li"
              key={reply._id}
              id={shortcut.optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              // Keep the focus in the text box: the click inserts, the box keeps typing.
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => shortcut.setActive(index)}
              onClick={() => shortcut.pick(reply)}
              sx={{
                px: 1.5,
                py: 0.75,
                borderRadius: 1,
                cursor: 'pointer',
                bgcolor: index === activeIndex ? 'action.selected' : 'transparent',
              }}
            >
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {reply.title}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {reply.text}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 1.5, pb: 0.75 }} aria-hidden>
        {t('savedReplies.picker.hint')}
      </Typography>
    </Paper>
  );
}
