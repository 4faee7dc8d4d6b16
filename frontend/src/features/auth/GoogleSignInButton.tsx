import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchPublicConfig } from '../../api/auth';
import { loadGoogleIdentity } from './gsi';

interface GoogleSignInButtonProps {
  /** Called with the ID token credential Google returns; undefined when Google sent none. */
  onCredential: (credential: string | undefined) => void;
  text?: 'signin_with' | 'signup_with' | 'continue_with';
}

/** Google's own button, shown only when /config.json has a client id and the script loads. */
export function GoogleSignInButton({ onCredential, text = 'continue_with' }: GoogleSignInButtonProps) {
  const { t, i18n } = useTranslation();
  const config = useQuery({ queryKey: ['public-config'], queryFn: fetchPublicConfig, staleTime: Infinity, retry: false });
  const clientId = config.data?.googleClientId ?? '';
  const container = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    callback.current = onCredential;
  }, [onCredential]);

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadGoogleIdentity()
      .then((google) => {
        const el = container.current;
        if (cancelled || !el) return;
        google.accounts.id.initialize({ client_id: clientId, callback: (res) => callback.current(res.credential) });
        el.replaceChildren();
        google.accounts.id.renderButton(el, {
          theme: 'outline',
          size: 'large',
          text,
          shape: 'rectangular',
          width: Math.min(Math.max(el.clientWidth, 200), 400),
          locale: i18n.language,
        });
        setReady(true);
      })
      .catch(() => {
        // Offline or blocked: no Google button, nothing else to say.
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, text, i18n.language]);

  if (!clientId) return null;
  return (
    <Box sx={{ mt: 3, display: ready ? 'block' : 'none' }}>
      <Divider sx={{ mb: 2.5, color: 'text.secondary', fontSize: 14 }}>{t('common.or')}</Divider>
      <Box
        ref={container}
        data-testid="google-signin"
        aria-label={t('auth.google.label')}
        sx={{ display: 'flex', justifyContent: 'center', width: '100%', minHeight: 44 }}
      />
    </Box>
  );
}
