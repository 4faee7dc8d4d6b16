/**
 * /contacts (SPEC §2 Contacts): header with Add Contact and Import from WhatsApp (premium-gated), CSV import and export,
 * the stats row, a debounced search (500 ms), the source filter, the page size, Clear Filters,
 * the rows with view and delete, pagination and the two empty states. The filters live in the
 * URL query (/contacts?search=… works, and so does the back button).
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { CONTACT_FILTER_MAX_SCANNED, CONTACT_SEARCH_MAX_MATCHES } from '@agentdesk/functions/contract';
import { FullPageSpinner } from '../../shared/FullPageSpinner';
import { usePageTitle } from '../../shared/usePageTitle';
import { useToast } from '../../shared/useToast';
import { AddContactDialog } from './AddContactDialog';
import { ContactsPagination } from './ContactsPagination';
import { DeleteContactDialog } from './DeleteContactDialog';
import { EmptyDirectoryState, NoMatchesState } from './EmptyState';
import { contactOrigin, displayName } from './fields';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import {
  DEFAULT_FILTERS,
  filtersToParams,
  hasActiveFilter,
  PAGE_SIZES,
  parseFilters,
  SEARCH_DEBOUNCE_MS,
  searchBoxAfterUrlChange,
  withFilter,
  type ContactFilters,
} from './filters';
import { contactErrorMessage, translateContactMessage } from './i18n';
import { ImportWizard } from './ImportWizard';
import { ExportDialog } from './ExportDialog';
import { formatPhone, whatsappLink } from '../../shared/phone';
import { useContactFacets, useContactList, useContactStats, useDeleteContact, useImportWhatsApp } from './queries';
import { BulkActions } from './BulkActions';
import { StatsRow } from './StatsRow';
import { CONTACT_SOURCES, type Contact } from './types';
import { formatDate } from '../../shared/intl';
import { RetryAlert } from '../../shared/RetryAlert';
import { ClearFiltersButton, FetchingBar, SearchField, SelectFilter } from '../../shared/filters';
import { PageHeader } from '../../shared/PageHeader';
import { ContactsHeaderActions } from './ContactsHeaderActions';

const MAX_TAGS_SHOWN = 2;

function ContactRow({ contact, onDelete, selected, onToggle }: { contact: Contact; onDelete: (contact: Contact) => void; selected: boolean; onToggle: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const name = displayName(contact) || t('contacts.unnamed');
  const phone = formatPhone(contact.phoneNumber);
  const wa = whatsappLink(contact.phoneNumber);
  const tags = contact.metadata?.tags ?? [];
  const added = formatDate(i18n.language, contact.createdAt, 'date') ?? '';
  const hideSm = { display: { xs: 'none', md: 'table-cell' } };
  return (
    <TableRow hover selected={selected}>
      <TableCell padding="checkbox">
        <Checkbox checked={selected} onChange={() => onToggle(contact._id)} slotProps={{ input: { 'aria-label': t('contacts.bulk.select', { name }) } }} />
      </TableCell>
      <TableCell sx={{ maxWidth: 0, width: { xs: '100%', md: '32%' } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar sx={{ width: 36, height: 36, bgcolor: 'primary.light', fontSize: 16 }} aria-hidden>
            {name.charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography component={RouterLink} to={`/contacts/${contact._id}`} noWrap sx={{ display: 'block', fontWeight: 600, color: 'text.primary', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }} tabIndex={-1}>
              {name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {contact.email || <Box component="span" sx={{ display: { md: 'none' } }}>{phone}</Box>}
            </Typography>
            {contact.email && phone && (
              <Typography variant="body2" color="text.secondary" noWrap sx={{ display: { md: 'none' } }}>
                {phone}
              </Typography>
            )}
          </Box>
        </Stack>
      </TableCell>
      <TableCell sx={{ ...hideSm, whiteSpace: 'nowrap' }}>
        {phone ? (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <span>{phone}</span>
            {wa && (
              <Tooltip title={t('contacts.table.whatsapp', { name })}>
                <IconButton size="small" href={wa} target="_blank" rel="noopener noreferrer" aria-label={t('contacts.table.whatsapp', { name })} sx={{ color: 'success.main' }}>
                  <WhatsApp fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('contacts.table.noPhone')}
          </Typography>
        )}
      </TableCell>
      <TableCell sx={hideSm}>
        <Chip size="small" variant="outlined" label={t(`contacts.origins.${contactOrigin(contact)}`)} />
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>
        <Stack direction="row" spacing={0.5}>
          {tags.slice(0, MAX_TAGS_SHOWN).map((tag) => (
            <Chip key={tag} size="small" label={tag} sx={{ maxWidth: 110 }} />
          ))}
          {tags.length > MAX_TAGS_SHOWN && <Chip size="small" variant="outlined" label={t('contacts.table.moreTags', { count: tags.length - MAX_TAGS_SHOWN })} />}
        </Stack>
      </TableCell>
      <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' }, whiteSpace: 'nowrap', color: 'text.secondary' }}>{added}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        <Tooltip title={t('contacts.table.view', { name })}>
          <IconButton component={RouterLink} to={`/contacts/${contact._id}`} aria-label={t('contacts.table.view', { name })} size="small">
            <VisibilityOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('contacts.table.delete', { name })}>
          <IconButton aria-label={t('contacts.table.delete', { name })} size="small" onClick={() => onDelete(contact)} sx={{ color: 'error.main' }}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

/** The search box's text: follows the URL when it changes from outside (see searchBoxAfterUrlChange). */
function useSearchInput(urlSearch: string, onDebounced: (search: string) => void) {
  const [input, setInput] = useState(urlSearch);
  const [seenUrl, setSeenUrl] = useState(urlSearch);
  const [pushed, setPushed] = useState<string | null>(null);
  if (urlSearch !== seenUrl) {
    const next = searchBoxAfterUrlChange({ input, pushed }, urlSearch);
    setSeenUrl(urlSearch);
    setPushed(next.pushed);
    if (next.input !== input) setInput(next.input);
  }
  // The callback is a new function on every render: kept in a ref so an unrelated re-render
  // (a query settling, a toast) does not restart the 500 ms timer.
  const onDebouncedRef = useRef(onDebounced);
  useEffect(() => {
    onDebouncedRef.current = onDebounced;
  });
  useEffect(() => {
    const next = input.trim();
    if (next === urlSearch) return undefined;
    const timer = setTimeout(() => {
      setPushed(next);
      onDebouncedRef.current(next);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input, urlSearch]);
  return [input, setInput] as const;
}

export default function ContactsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  usePageTitle(t('contacts.title'));
  const [params, setParams] = useSearchParams();
  const filters = parseFilters(params);
  const list = useContactList(filters);
  const stats = useContactStats();
  const remove = useDeleteContact();
  const importWhatsApp = useImportWhatsApp();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [toDelete, setToDelete] = useState<Contact | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const facets = useContactFacets();

  const setFilters = (next: ContactFilters, replace = false) => setParams(filtersToParams(next), { replace });
  const filtersKey = params.toString();
  const [input, setInput] = useSearchInput(filters.search, (search) => setFilters(withFilter(parseFilters(new URLSearchParams(filtersKey)), { search })));
  const [valueInput, setValueInput] = useSearchInput(filters.value, (value) => setFilters(withFilter(parseFilters(new URLSearchParams(filtersKey)), { value })));
  // The selection is of the rows on screen: another page or filter starts a new one.
  const [selectionKey, setSelectionKey] = useState(filtersKey);
  if (selectionKey !== filtersKey) {
    setSelectionKey(filtersKey);
    setSelected([]);
  }
  const toggle = (id: string) => setSelected((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  // SPEC §8: 'Failed to load contacts' (server message preferred).
  const { error: listError, errorUpdatedAt } = list;
  useEffect(() => {
    if (listError) toast.error(contactErrorMessage(listError, t('contacts.toasts.loadFailed')));
  }, [listError, errorUpdatedAt, toast, t]);

  // A page past the end (after deletions, or an old link) moves to the last page.
  const totalPages = list.data?.pagination.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && totalPages >= 1 && filters.page > totalPages) {
      setParams(filtersToParams({ ...parseFilters(new URLSearchParams(filtersKey)), page: totalPages }), { replace: true });
    }
  }, [totalPages, filters.page, filtersKey, setParams]);

  const onConfirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete._id);
      toast.success(t('contacts.toasts.deleted'));
      setToDelete(null);
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.toasts.deleteFailed')));
    }
  };

  // Import from WhatsApp says what it will do and asks first (issue 29).
  const [confirmingWhatsApp, setConfirmingWhatsApp] = useState(false);
  const onImportWhatsApp = () => setConfirmingWhatsApp(true);
  const onConfirmWhatsApp = async () => {
    try {
      const env = await importWhatsApp.mutateAsync();
      toast.success(env.message ? translateContactMessage(env.message) : t('contacts.whatsappImport.done', { count: env.data?.imported ?? 0 }));
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.whatsappImport.failed')));
    } finally {
      setConfirmingWhatsApp(false);
    }
  };

  const contacts = list.data?.data ?? [];
  const pagination = list.data?.pagination;
  const filtered = hasActiveFilter(filters);
  const canClear = filtered || input !== '' || filters.limit !== DEFAULT_FILTERS.limit;
  const pageIds = contacts.map((c) => c._id);
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const someSelected = selected.length > 0 && !allSelected;
  const tagOptions = facets.data?.tags.map((f) => f.tag) ?? [];
  const fieldOptions = facets.data?.fields ?? [];

  let body;
  if (list.isPending) {
    body = <FullPageSpinner inline />;
  } else if (list.isError && !list.data) {
    body = (
      <Box sx={{ p: 3 }}>
        <RetryAlert retryLabel={t('contacts.detail.retry')} onRetry={() => void list.refetch()}>
          {contactErrorMessage(list.error, t('contacts.toasts.loadFailed'))}
        </RetryAlert>
      </Box>
    );
  } else if (contacts.length === 0) {
    body = filtered ? (
      <NoMatchesState />
    ) : (
      <EmptyDirectoryState onAdd={() => setAdding(true)} onImportWhatsApp={onImportWhatsApp} importing={importWhatsApp.isPending} />
    );
  } else {
    body = (
      <>
        <TableContainer>
          <Table aria-label={t('contacts.table.label')} sx={{ tableLayout: { md: 'auto' } }}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={allSelected}
                    indeterminate={someSelected}
                    onChange={() => setSelected(allSelected ? [] : pageIds)}
                    slotProps={{ input: { 'aria-label': t('contacts.bulk.selectPage') } }}
                  />
                </TableCell>
                <TableCell>{t('contacts.table.name')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('contacts.table.phone')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('contacts.table.source')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('contacts.table.tags')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('contacts.table.added')}</TableCell>
                <TableCell align="right">{t('contacts.table.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {contacts.map((contact) => (
                <ContactRow key={contact._id} contact={contact} onDelete={setToDelete} selected={selected.includes(contact._id)} onToggle={toggle} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {pagination && <ContactsPagination pagination={pagination} disabled={list.isPlaceholderData} onPage={(page) => setFilters({ ...filters, page })} />}
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('contacts.title')} subtitle={t('contacts.subtitle')} breakpoint="md">
        <ContactsHeaderActions
          onExport={() => setExporting(true)}
          onImportWhatsApp={onImportWhatsApp}
          importingWhatsApp={importWhatsApp.isPending}
          onImportCsv={() => setImporting(true)}
          onAdd={() => setAdding(true)}
        />
      </PageHeader>

      <StatsRow stats={stats.data} />

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ p: 2, alignItems: { md: 'center' }, borderBottom: 1, borderColor: 'divider' }}>
          <SearchField
            label={t('contacts.filters.search')}
            placeholder={t('contacts.filters.searchPlaceholder')}
            value={input}
            onChange={setInput}
            sx={{ flex: 1, minWidth: { md: 260 } }}
          />
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <SelectFilter
              label={t('contacts.filters.source')}
              value={filters.source}
              options={CONTACT_SOURCES}
              optionLabel={(source) => t(`contacts.sources.${source}`)}
              allLabel={t('contacts.filters.allSources')}
              onChange={(source) => setFilters(withFilter(filters, { source }))}
              sx={{ width: { md: 200 }, flex: { xs: 1, md: 'none' } }}
            />
            <SelectFilter
              label={t('contacts.filters.pageSize')}
              value={filters.limit}
              options={PAGE_SIZES}
              optionLabel={(size) => size}
              onChange={(limit) => setFilters(withFilter(filters, { limit }))}
              sx={{ width: 110, flex: 'none' }}
            />
          </Stack>
          <ClearFiltersButton
            label={t('contacts.filters.clear')}
            disabled={!canClear}
            onClear={() => {
              setInput('');
              setValueInput('');
              setFilters(DEFAULT_FILTERS);
            }}
          />
        </Stack>
        {(tagOptions.length > 0 || fieldOptions.length > 0 || filters.tag || filters.field) && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', alignItems: { sm: 'center' } }}>
            <SelectFilter
              label={t('contacts.filters.tag')}
              value={filters.tag}
              options={filters.tag && !tagOptions.includes(filters.tag) ? [filters.tag, ...tagOptions] : tagOptions}
              optionLabel={(tag) => tag}
              allLabel={t('contacts.filters.allTags')}
              onChange={(tag) => setFilters(withFilter(filters, { tag }))}
              sx={{ width: { sm: 200 } }}
            />
            <SelectFilter
              label={t('contacts.filters.field')}
              value={filters.field}
              options={filters.field && !fieldOptions.includes(filters.field) ? [filters.field, ...fieldOptions] : fieldOptions}
              optionLabel={(field) => field}
              allLabel={t('contacts.filters.anyField')}
              onChange={(field) => {
                setValueInput('');
                setFilters(withFilter(filters, { field, value: '' }));
              }}
              sx={{ width: { sm: 200 } }}
            />
            {filters.field && (
              <TextField
                size="small"
                label={t('contacts.filters.value')}
                placeholder={t('contacts.filters.valuePlaceholder')}
                value={valueInput}
                onChange={(e) => setValueInput(e.target.value)}
                sx={{ width: { sm: 220 } }}
              />
            )}
          </Stack>
        )}
        <BulkActions ids={selected} onClear={() => setSelected([])} />
        <FetchingBar fetching={list.isFetching && !list.isPending} />
        {list.data?.filterTruncated && (
          <Alert severity="info" sx={{ m: 2, mb: 0 }}>
            {t('contacts.filterTruncated', { count: CONTACT_FILTER_MAX_SCANNED })}
          </Alert>
        )}
        {list.data?.searchTruncated && (
          <Alert severity="info" sx={{ m: 2, mb: 0 }}>
            {t('contacts.searchTruncated', { count: CONTACT_SEARCH_MAX_MATCHES })}
          </Alert>
        )}
        {body}
      </Paper>

      <AddContactDialog open={adding} onClose={() => setAdding(false)} />
      <ImportWizard open={importing} onClose={() => setImporting(false)} />
      <ExportDialog
        open={exporting}
        onClose={() => setExporting(false)}
        filters={filters}
        matching={list.data && !list.isPlaceholderData && !list.data.filterTruncated && !list.data.searchTruncated ? list.data.pagination.totalContacts : undefined}
      />
      <ConfirmDialog
        open={confirmingWhatsApp}
        tone="primary"
        title={t('contacts.whatsappImport.confirmTitle')}
        body={t('contacts.whatsappImport.confirmBody')}
        confirmLabel={t('contacts.whatsappImport.confirm')}
        pendingLabel={t('contacts.whatsappImport.importing')}
        pending={importWhatsApp.isPending}
        onCancel={() => setConfirmingWhatsApp(false)}
        onConfirm={() => void onConfirmWhatsApp()}
      />
      <DeleteContactDialog
        name={toDelete ? displayName(toDelete) || t('contacts.unnamed') : null}
        pending={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void onConfirmDelete()}
      />
    </Box>
  );
}
