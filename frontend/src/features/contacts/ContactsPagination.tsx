/**
 * SPEC §2 Contacts pagination: Previous/Next on small screens; 'Page X of Y' with up to 5 page
 * buttons centred on the current page on larger ones.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useTranslation } from 'react-i18next';
import { PageButtons } from '../../shared/PageButtons';
import { formatNumber } from '../../shared/intl';
import { pageRange } from '../../shared/pagination';
import type { ContactPagination } from './types';

interface ContactsPaginationProps {
  pagination: ContactPagination;
  onPage: (page: number) => void;
  disabled?: boolean;
}

export function ContactsPagination({ pagination, onPage, disabled = false }: ContactsPaginationProps) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(i18n.language, value);
  const { currentPage: page, totalPages, limit, totalContacts, hasPrevPage, hasNextPage } = pagination;
  if (totalPages <= 1 && totalContacts <= limit) {
    return null;
  }
  const { from, to } = pageRange(page, limit, totalContacts);
  const pageLabel = t('contacts.pagination.page', { page: n(page), total: n(totalPages) });

  return (
    <Box component="nav" aria-label={t('contacts.pagination.label')} sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider' }}>
      {/* Small screens: Previous / Next. */}
      <Stack direction="row" sx={{ display: { xs: 'flex', md: 'none' }, alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Button variant="outlined" size="small" disabled={disabled || !hasPrevPage} onClick={() => onPage(page - 1)}>
          {t('contacts.pagination.previous')}
        </Button>
        <Typography variant="body2" color="text.secondary">
          {pageLabel}
        </Typography>
        <Button variant="outlined" size="small" disabled={disabled || !hasNextPage} onClick={() => onPage(page + 1)}>
          {t('contacts.pagination.next')}
        </Button>
      </Stack>
      {/* Larger screens: 'Page X of Y' and up to 5 page buttons centred on the current one. */}
      <Stack direction="row" sx={{ display: { xs: 'none', md: 'flex' }, alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {t('contacts.pagination.showing', { from: n(from), to: n(to), total: n(totalContacts) })}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ mr: 1.5 }}>
            {pageLabel}
          </Typography>
          <IconButton size="small" aria-label={t('contacts.pagination.previousPage')} disabled={disabled || !hasPrevPage} onClick={() => onPage(page - 1)}>
            <ChevronLeft />
          </IconButton>
          <PageButtons page={page} totalPages={totalPages} disabled={disabled} onPage={onPage} goToLabel={(p) => t('contacts.pagination.goTo', { page: p })} />
          <IconButton size="small" aria-label={t('contacts.pagination.nextPage')} disabled={disabled || !hasNextPage} onClick={() => onPage(page + 1)}>
            <ChevronRight />
          </IconButton>
        </Stack>
      </Stack>
    </Box>
  );
}
