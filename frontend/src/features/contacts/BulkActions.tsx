/**
 * The bulk bar of the contacts list: shown while rows are selected ("3 selected"), with Delete
 * (confirmation naming the count), Add tag, Remove tag and Clear selection.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import { useTranslation } from 'react-i18next';
import { CONTACT_LIMITS } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { useToast } from '../../shared/useToast';
import { contactErrorMessage } from './i18n';
import { useBulkDelete, useBulkTag } from './queries';

type TagMode = 'add' | 'remove';

function TagDialog({ mode, count, pending, onCancel, onApply }: { mode: TagMode | null; count: number; pending: boolean; onCancel: () => void; onApply: (tag: string) => void }) {
  const { t } = useTranslation();
  const [tag, setTag] = useState('');
  const close = () => {
    if (pending) return;
    setTag('');
    onCancel();
  };
  const submit = () => {
    if (tag.trim()) onApply(tag.trim());
  };
  return (
    <Dialog open={mode !== null} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{mode === 'remove' ? t('contacts.bulk.removeTagTitle', { count }) : t('contacts.bulk.addTagTitle', { count })}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={t('contacts.bulk.tagLabel')}
          value={tag}
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') submit();
          }}
          slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS.tag } }}
          helperText={`${tag.length}/${CONTACT_LIMITS.tag}`}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={pending}>
          {t('contacts.form.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} disabled={pending || !tag.trim()}>
          {pending ? t('contacts.bulk.applying') : mode === 'remove' ? t('contacts.bulk.removeTag') : t('contacts.bulk.addTag')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function BulkActions({ ids, onClear }: { ids: string[]; onClear: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const remove = useBulkDelete();
  const tag = useBulkTag();
  const [confirming, setConfirming] = useState(false);
  const [tagMode, setTagMode] = useState<TagMode | null>(null);
  const count = ids.length;

  const onDelete = async () => {
    try {
      const result = await remove.mutateAsync(ids);
      toast.success(t('contacts.bulk.deleted', { count: result.deleted }));
      setConfirming(false);
      onClear();
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.bulk.deleteFailed')));
    }
  };

  const onTag = async (value: string) => {
    try {
      const result = await tag.mutateAsync(tagMode === 'remove' ? { ids, remove: [value] } : { ids, add: [value] });
      toast.success(t('contacts.bulk.tagged', { count: result.updated }));
      if (result.tooManyTags > 0) toast.error(t('contacts.bulk.tooManyTags', { count: result.tooManyTags, max: CONTACT_LIMITS.tags }));
      setTagMode(null);
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.bulk.tagFailed')));
    }
  };

  if (count === 0) return null;
  return (
    <>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        role="region"
        aria-label={t('contacts.bulk.label')}
        sx={{ px: 2, py: 1, alignItems: 'center', flexWrap: 'wrap', bgcolor: 'action.selected', borderBottom: 1, borderColor: 'divider' }}
      >
        <Typography sx={{ fontWeight: 600, mr: 1 }} aria-live="polite">
          {t('contacts.bulk.selected', { count })}
        </Typography>
        <Button size="small" color="error" variant="contained" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)}>
          {t('contacts.bulk.delete')}
        </Button>
        <Button size="small" variant="outlined" startIcon={<LocalOfferOutlined />} onClick={() => setTagMode('add')}>
          {t('contacts.bulk.addTag')}
        </Button>
        <Button size="small" variant="outlined" onClick={() => setTagMode('remove')}>
          {t('contacts.bulk.removeTag')}
        </Button>
        <Button size="small" onClick={onClear}>
          {t('contacts.bulk.clear')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t('contacts.bulk.deleteTitle', { count })}
        body={t('contacts.bulk.deleteBody', { count })}
        confirmLabel={t('contacts.bulk.deleteConfirm', { count })}
        pendingLabel={t('contacts.delete.deleting')}
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onDelete()}
      />
      <TagDialog key={tagMode ?? 'closed'} mode={tagMode} count={count} pending={tag.isPending} onCancel={() => setTagMode(null)} onApply={(v) => void onTag(v)} />
    </>
  );
}
