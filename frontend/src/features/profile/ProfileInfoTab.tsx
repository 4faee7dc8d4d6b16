import { useRef, useState, type ReactNode } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@agentdesk/functions/contract';
import { authApi } from '../../api/auth';
import { ME_QUERY_KEY } from '../../shared/session';
import { useIntl } from '../../shared/useIntl';
import { useToast } from '../../shared/useToast';
import { errorMessage } from '../../i18n';
import { ProfileCard } from './ProfileCard';

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 1.25 }}>
      <Typography color="text.secondary" sx={{ width: { sm: 180 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
    </Stack>
  );
}

/** Read-only personal info, account status and role badge. */
export function ProfileInfoTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const intl = useIntl();
  const toast = useToast();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const memberSince = intl.date(user.createdAt, 'longDate') ?? t('profile.info.notSet');

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) {
      toast.error(t('profile.info.photoType'));
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      toast.error(t('profile.info.photoSize'));
      return;
    }
    setUploading(true);
    try {
      const updated = await authApi.uploadAvatar(file);
      queryClient.setQueryData(ME_QUERY_KEY, updated);
      toast.success(t('profile.info.photoUpdated'));
    } catch (err) {
      toast.error(errorMessage(err, t('errors.unexpectedShort')));
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <Stack spacing={3}>
      <Card>
        <CardContent sx={{ p: 3 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
            <Avatar src={user.avatarUrl} alt="" sx={{ width: 88, height: 88, fontSize: 36, bgcolor: 'primary.main' }}>
              {user.name.trim().charAt(0).toUpperCase()}
            </Avatar>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="h5" component="h2">
                  {user.name}
                </Typography>
                <Chip
                  size="small"
                  color="primary"
                  variant="outlined"
                  label={t(`roles.${user.role || 'user'}`, { defaultValue: user.role || 'user' })}
                  data-testid="role-badge"
                  aria-label={`${t('profile.info.role')}: ${user.role || 'user'}`}
                />
              </Stack>
              <Typography color="text.secondary">{user.email}</Typography>
            </Box>
            <Box>
              <input
                ref={fileInput}
                type="file"
                accept={AVATAR_TYPES.join(',')}
                hidden
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
              <Button
                variant="outlined"
                startIcon={<PhotoCameraOutlined />}
                onClick={() => fileInput.current?.click()}
                disabled={uploading}
              >
                {uploading ? t('profile.info.uploading') : t('profile.info.changePhoto')}
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Card>

      <ProfileCard title={t('profile.info.personal')} titleGap={1}>
        <Row label={t('profile.info.name')}>{user.name}</Row>
        <Divider />
        <Row label={t('profile.info.email')}>{user.email}</Row>
        <Divider />
        <Row label={t('profile.info.phone')}>{user.phoneNumber || t('profile.info.notSet')}</Row>
        <Divider />
        <Row label={t('profile.info.language')}>{t(`common.languages.${user.language === 'es' ? 'es' : 'en'}`)}</Row>
        <Divider />
        <Row label={t('profile.info.memberSince')}>{memberSince}</Row>
      </ProfileCard>

      <ProfileCard title={t('profile.info.accountStatus')} titleGap={1}>
        <Row label={t('profile.info.subscription')}>
          <Chip
            size="small"
            color={user.hasActiveSubscription ? 'success' : 'default'}
            label={user.hasActiveSubscription ? t('profile.info.active') : t('profile.info.inactive')}
          />
        </Row>
        <Divider />
        <Row label={t('profile.info.signInMethod')}>
          {user.authProvider === 'google' ? t('profile.info.methodGoogle') : t('profile.info.methodPassword')}
        </Row>
        <Divider />
        <Row label={t('profile.info.role')}>{t(`roles.${user.role || 'user'}`, { defaultValue: user.role || 'user' })}</Row>
      </ProfileCard>
    </Stack>
  );
}
