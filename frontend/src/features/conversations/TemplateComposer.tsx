/**
 * The reply box of the conversation modal once the 24-hour window is closed (issue 17): WhatsApp
 * then only delivers a template the business had approved, so the box offers those (name +
 * language), one field per body parameter, a live preview of the filled text (the contract's
 * fillTemplate, the same the server stores) and Send. Loading, empty ("create them in WhatsApp
 * Manager") and error states; a refused send shows the server's reason (Meta's error in words).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Send from '@mui/icons-material/Send';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fillTemplate, TEMPLATE_LIMITS, type SendTemplateRequest, type WhatsAppTemplate } from '@agentdesk/functions/contract';
import { ApiError } from '../../api/client';
import { conversationKeys } from '../../api/conversations';
import { templateKeys, templatesApi } from '../../api/whatsappTemplates';
import { translateMessage } from '../../i18n';
import { RetryAlert } from '../../shared/RetryAlert';
import { useToast } from '../../shared/useToast';

const keyOf = (t: Pick<WhatsAppTemplate, 'name' | 'language'>) => `${t.name}|${t.language}`;

export function useTemplates() {
  return useQuery({ queryKey: templateKeys.list, queryFn: ({ signal }) => templatesApi.list(signal), staleTime: 60_000 });
}

function useSendTemplate(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendTemplateRequest) => templatesApi.send(conversationId, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.overviews }),
      ]),
  });
}

const serverReason = (err: unknown) => (err instanceof ApiError && err.serverMessage ? translateMessage(err.serverMessage) : '');

export function TemplateComposer({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const templates = useTemplates();
  const send = useSendTemplate(conversationId);
  const [selected, setSelected] = useState('');
  const [values, setValues] = useState<string[]>([]);
  const [error, setError] = useState('');

  const list = templates.data ?? [];
  const template = list.find((x) => keyOf(x) === selected);
  const filled = template ? template.parameters.every((_, i) => (values[i] ?? '').trim() !== '') : false;

  const choose = (key: string) => {
    setSelected(key);
    setValues([]);
    setError('');
  };

  const submit = async () => {
    if (!template || !filled || send.isPending) return;
    setError('');
    try {
      await send.mutateAsync({ name: template.name, language: template.language, parameters: template.parameters.map((_, i) => values[i]!.trim()) });
      toast.success(t('conversations.templates.sent'));
      setValues([]);
    } catch (err) {
      setError(serverReason(err) || t('conversations.templates.sendFailed'));
    }
  };

  let content;
  if (templates.isPending) {
    content = (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
        <CircularProgress size={18} />
        <Typography variant="body2" color="text.secondary">
          {t('conversations.templates.loading')}
        </Typography>
      </Stack>
    );
  } else if (templates.isError) {
    content = (
      <RetryAlert retryLabel={t('conversations.templates.retry')} onRetry={() => void templates.refetch()} retrying={templates.isFetching} data-testid="template-load-error">
        {serverReason(templates.error) || t('conversations.templates.loadFailed')}
      </RetryAlert>
    );
  } else if (list.length === 0) {
    content = (
      <Alert severity="info" variant="outlined" data-testid="template-empty">
        {t('conversations.templates.empty')}
      </Alert>
    );
  } else {
    content = (
      <Stack spacing={1.5}>
        <TextField
          select
          size="small"
          label={t('conversations.templates.template')}
          value={selected}
          onChange={(e) => choose(e.target.value)}
          slotProps={{ select: { MenuProps: { slotProps: { paper: { 'data-testid': 'template-options' } as object } } } }}
          data-testid="template-select"
        >
          {list.map((x) => (
            <MenuItem key={keyOf(x)} value={keyOf(x)}>
              {t('conversations.templates.option', { name: x.name, language: x.language })}
            </MenuItem>
          ))}
        </TextField>
        {template && (
          <>
            {template.parameters.map((name, i) => (
              <TextField
                key={`${selected}-${name}`}
                size="small"
                label={t('conversations.templates.parameter', { name: `{{${name}}}`, interpolation: { escapeValue: false } })}
                value={values[i] ?? ''}
                onChange={(e) => {
                  const next = [...values];
                  next[i] = e.target.value;
                  setValues(next);
                }}
                slotProps={{ htmlInput: { maxLength: TEMPLATE_LIMITS.parameterLength, 'data-testid': `template-parameter-${i + 1}` } }}
              />
            ))}
            <Box>
              <Typography variant="caption" color="text.secondary" component="p" id="template-preview-label">
                {t('conversations.templates.preview')}
              </Typography>
              <Typography
                variant="body2"
                aria-labelledby="template-preview-label"
                data-testid="template-preview"
                sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', bgcolor: 'action.hover', borderRadius: 1, p: 1 }}
              >
                {fillTemplate(template.body, values.map((v) => v?.trim() ?? ''))}
              </Typography>
            </Box>
          </>
        )}
        {error && (
          <Alert severity="error" data-testid="template-send-error">
            {error}
          </Alert>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="contained" endIcon={<Send />} onClick={() => void submit()} disabled={!template || !filled || send.isPending}>
            {send.isPending ? t('conversations.templates.sending') : t('conversations.templates.send')}
          </Button>
        </Box>
      </Stack>
    );
  }

  return (
    <Stack spacing={1} component="section" aria-label={t('conversations.templates.title')} data-testid="template-composer">
      <Typography variant="subtitle2" component="h4">
        {t('conversations.templates.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('conversations.templates.hint')}
      </Typography>
      {content}
    </Stack>
  );
}
