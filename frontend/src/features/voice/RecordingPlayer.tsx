/**
 * The call recording: GET /api/voice-conversations/{id}/recording needs the bearer token, so an
 * <audio src> cannot load it directly. On demand the audio is fetched as a blob through the API
 * client and played from an object URL (released when the page leaves).
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import PlayArrow from '@mui/icons-material/PlayArrow';
import { useTranslation } from 'react-i18next';
import { voiceConversationsApi } from '../../api/voiceConversations';
import { errorMessage } from '../../i18n';

export function RecordingPlayer({ callId }: { callId: string }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );

  const load = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setLoading(true);
    setError(null);
    try {
      const blob = await voiceConversationsApi.recording(callId, controller.signal);
      if (!controller.signal.aborted) setUrl(URL.createObjectURL(blob));
    } catch (err) {
      if (!controller.signal.aborted) setError(errorMessage(err, t('voiceCalls.detail.recordingFailed')));
    } finally {
      if (!controller.signal.aborted) setLoading(false);
    }
  };

  if (url) {
    return (
      <audio controls autoPlay src={url} style={{ width: '100%' }} data-testid="call-recording">
        {t('voiceCalls.detail.recording')}
      </audio>
    );
  }
  return (
    <>
      <Button variant="outlined" startIcon={<PlayArrow />} onClick={() => void load()} disabled={loading}>
        {loading ? t('voiceCalls.detail.loadingRecording') : t('voiceCalls.detail.loadRecording')}
      </Button>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </>
  );
}
