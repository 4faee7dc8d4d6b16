/**
 * Create/Edit Tool (SPEC §2 Custom Tools, §5 Tool): Tool Name (normalised as typed, with a preview of
 * the saved name), Tool Type (fixed to HTTP Request), Description, Endpoint (URL), Method (GET by
 * default), Header Key and Header Value (optional; a stored value stays hidden as '***' and is kept
 * unless replaced), and the parameter list (name read-only once saved, type, description, required,
 * remove). Validation is the contract's `toolRequest`, so the messages are the server's.
 */
import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { toNestErrors } from '@hookform/resolvers';
import { Controller, useFieldArray, useForm, type FieldError, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  AGENT_LIMITS,
  MASKED_SECRET,
  TOOL_METHODS,
  TOOL_PARAMETER_TYPES,
  agentMessages,
  normaliseToolName,
  type AgentTool,
  type ToolInput,
} from '@agentdesk/functions/contract';
import { ApiError } from '../../../api/client';
import { fieldProps } from '../../../shared/forms';
import { SectionHeading } from '../../../shared/SectionHeading';
import { useToast } from '../../../shared/useToast';
import { tabErrorMessage, tabMessage } from './messages';
import { useSaveTool } from './queries';
import {
  DUPLICATE_PARAMETER,
  EMPTY_TOOL_FORM,
  emptyParameter,
  hasStoredHeaderValue,
  liveToolName,
  toolToForm,
  validateToolForm,
  type ToolFormValues,
} from './toolForm';

interface ToolDialogProps {
  open: boolean;
  agentId: string;
  /** The tool being edited; null creates one. */
  tool: AgentTool | null;
  /** Values to start a new tool from (an example). */
  prefill: ToolFormValues | null;
  onClose: () => void;
}

/** Server messages that belong to one field. */
const FIELD_OF_MESSAGE: Record<string, keyof ToolFormValues> = {
  [agentMessages.toolNameTaken]: 'name',
  [agentMessages.toolNameReserved]: 'name',
  [agentMessages.toolNameFormat]: 'name',
  [agentMessages.toolNameTooLong]: 'name',
  [agentMessages.endpointInvalid]: 'endpoint',
  [agentMessages.endpointRequired]: 'endpoint',
  [agentMessages.headerKeyInvalid]: 'headerKey',
  [agentMessages.headerValueWithoutKey]: 'headerValue',
  [agentMessages.headerValueInvalid]: 'headerValue',
};

export function ToolDialog({ open, agentId, tool, prefill, onClose }: ToolDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const save = useSaveTool(agentId);
  const storedHeader = hasStoredHeaderValue(tool);

  const resolver: Resolver<ToolFormValues, unknown, ToolInput> = (values, _context, options) => {
    const result = validateToolForm(values, tool);
    if (!result.errors) return { values: result.input, errors: {} };
    const flat = Object.fromEntries(
      Object.entries(result.errors).map(([path, message]) => [path === 'parameters' ? 'parameters.root' : path, { type: 'validation', message }]),
    );
    return { values: {}, errors: toNestErrors<ToolFormValues>(flat, options) };
  };

  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ToolFormValues, unknown, ToolInput>({ resolver, defaultValues: EMPTY_TOOL_FORM });
  const { fields, append, remove } = useFieldArray({ control, name: 'parameters' });

  // Each opening starts from the tool, the chosen example or an empty form.
  useEffect(() => {
    if (open) reset(tool ? toolToForm(tool) : (prefill ?? EMPTY_TOOL_FORM));
  }, [open, tool, prefill, reset]);

  const rawName = watch('name');
  const savedName = normaliseToolName(rawName ?? '');

  const translate = (text: string) => (text === DUPLICATE_PARAMETER ? t('agentTabs.tools.form.duplicateParameter') : tabMessage(text));
  /** error / helperText for a field: its message in the UI language, else the hint. */
  const errorOrHint = (error: FieldError | undefined, hint?: string) => fieldProps(error, hint, translate);

  const close = () => {
    if (!isSubmitting) onClose();
  };

  const onSubmit = handleSubmit(async (input) => {
    try {
      const res = await save.mutateAsync({ toolId: tool?._id ?? null, input });
      toast.success(res.message ? tabMessage(res.message) : t(tool ? 'agentTabs.tools.updated' : 'agentTabs.tools.created'));
      onClose();
    } catch (err) {
      const field = err instanceof ApiError && err.serverMessage ? FIELD_OF_MESSAGE[err.serverMessage] : undefined;
      if (field && err instanceof ApiError) setError(field, { message: err.serverMessage });
      toast.error(tabErrorMessage(err, t('agentTabs.tools.saveFailed')));
    }
  });

  const parametersError = errorOrHint(errors.parameters?.root as FieldError | undefined).helperText;

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="tool-dialog-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="tool-dialog-title">{tool ? t('agentTabs.tools.form.editTitle') : t('agentTabs.tools.form.createTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2.5}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={control}
                name="name"
                render={({ field }) => (
                  <TextField
                    {...field}
                    onChange={(event) => field.onChange(liveToolName(event.target.value))}
                    onBlur={() => {
                      setValue('name', normaliseToolName(field.value));
                      field.onBlur();
                    }}
                    label={t('agentTabs.tools.form.name')}
                    placeholder="book_appointment"
                    required
                    fullWidth
                    autoComplete="off"
                    autoFocus={!tool}
                    slotProps={{ htmlInput: { maxLength: AGENT_LIMITS.toolName, spellCheck: false } }}
                    {...errorOrHint(errors.name, savedName ? t('agentTabs.tools.form.namePreview', { name: savedName }) : t('agentTabs.tools.form.nameHint'))}
                  />
                )}
              />
              <TextField
                label={t('agentTabs.tools.form.type')}
                value="http_request"
                select
                disabled
                fullWidth
                helperText={t('agentTabs.tools.form.typeHint')}
              >
                <MenuItem value="http_request">{t('agentTabs.tools.httpRequest')}</MenuItem>
              </TextField>
            </Stack>

            <TextField
              label={t('agentTabs.tools.form.description')}
              placeholder={t('agentTabs.tools.form.descriptionPlaceholder')}
              required
              multiline
              minRows={2}
              fullWidth
              {...register('description')}
              {...errorOrHint(errors.description, t('agentTabs.tools.form.descriptionHint'))}
            />

            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <Controller
                control={control}
                name="method"
                render={({ field }) => (
                  <TextField {...field} select label={t('agentTabs.tools.form.method')} sx={{ minWidth: 140 }} {...errorOrHint(errors.method)}>
                    {TOOL_METHODS.map((method) => (
                      <MenuItem key={method} value={method}>
                        {method}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <TextField
                label={t('agentTabs.tools.form.endpoint')}
                placeholder="https://api.example.com/endpoint"
                type="url"
                required
                fullWidth
                autoComplete="off"
                {...register('endpoint')}
                {...errorOrHint(errors.endpoint, t('agentTabs.tools.form.endpointHint'))}
              />
            </Stack>

            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('agentTabs.tools.form.headerKey')}
                placeholder="X-API-Key"
                fullWidth
                autoComplete="off"
                {...register('headerKey')}
                {...errorOrHint(errors.headerKey, t('agentTabs.tools.form.optional'))}
              />
              <TextField
                label={t('agentTabs.tools.form.headerValue')}
                placeholder={storedHeader ? MASKED_SECRET : ''}
                type="password"
                fullWidth
                autoComplete="new-password"
                // The '***' placeholder shows that a value is stored.
                slotProps={storedHeader ? { inputLabel: { shrink: true } } : undefined}
                {...register('headerValue')}
                {...errorOrHint(errors.headerValue, storedHeader ? t('agentTabs.tools.form.headerValueKept') : t('agentTabs.tools.form.headerValueHint'))}
              />
            </Stack>

            <Divider />

            <Box>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
                <SectionHeading variant="subtitle1" component="h3" title={t('agentTabs.tools.form.parameters')} text={t('agentTabs.tools.form.parametersHint')} />
                <Button
                  startIcon={<Add />}
                  onClick={() => append(emptyParameter())}
                  disabled={fields.length >= AGENT_LIMITS.toolParameters}
                  sx={{ flexShrink: 0 }}
                >
                  {t('agentTabs.tools.form.addParameter')}
                </Button>
              </Stack>
              {parametersError && (
                <Alert severity="error" sx={{ mb: 1 }}>
                  {parametersError}
                </Alert>
              )}
              {fields.length === 0 ? (
                <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
                  {t('agentTabs.tools.form.noParameters')}
                </Typography>
              ) : (
                <Stack spacing={1.5}>
                  {fields.map((row, index) => {
                    const rowErrors = errors.parameters?.[index];
                    return (
                      <Paper key={row.id} variant="outlined" sx={{ p: 1.5 }} data-testid="tool-parameter">
                        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ alignItems: { md: 'flex-start' } }}>
                          <TextField
                            label={t('agentTabs.tools.form.parameterName')}
                            size="small"
                            autoComplete="off"
                            sx={{ flex: { md: '0 0 170px' } }}
                            {...register(`parameters.${index}.name`)}
                            slotProps={{ htmlInput: { readOnly: row.locked, spellCheck: false } }}
                            {...errorOrHint(rowErrors?.name, row.locked ? t('agentTabs.tools.form.parameterNameLocked') : undefined)}
                          />
                          <Controller
                            control={control}
                            name={`parameters.${index}.type`}
                            render={({ field }) => (
                              <TextField
                                {...field}
                                select
                                size="small"
                                label={t('agentTabs.tools.form.parameterType')}
                                sx={{ flex: { md: '0 0 170px' } }}
                                {...errorOrHint(rowErrors?.type)}
                              >
                                {TOOL_PARAMETER_TYPES.map((type) => (
                                  <MenuItem key={type} value={type}>
                                    {t(`agentTabs.tools.parameterTypes.${type}`)}
                                  </MenuItem>
                                ))}
                              </TextField>
                            )}
                          />
                          <TextField
                            label={t('agentTabs.tools.form.parameterDescription')}
                            size="small"
                            fullWidth
                            sx={{ flex: { md: 1 } }}
                            autoComplete="off"
                            {...register(`parameters.${index}.description`)}
                            {...errorOrHint(rowErrors?.description)}
                          />
                          <Stack direction="row" sx={{ alignItems: 'center', flexShrink: 0 }}>
                            <Controller
                              control={control}
                              name={`parameters.${index}.required`}
                              render={({ field }) => (
                                <FormControlLabel
                                  control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} size="small" />}
                                  label={t('agentTabs.tools.form.parameterRequired')}
                                />
                              )}
                            />
                            <Tooltip title={t('agentTabs.tools.form.removeParameter')}>
                              <IconButton
                                aria-label={t('agentTabs.tools.form.removeParameterAria', { name: row.name || index + 1 })}
                                onClick={() => remove(index)}
                              >
                                <DeleteOutline />
                              </IconButton>
                            </Tooltip>
                          </Stack>
                        </Stack>
                      </Paper>
                    );
                  })}
                </Stack>
              )}
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={close} disabled={isSubmitting}>
            {t('agentTabs.common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {isSubmitting ? t('agentTabs.tools.form.saving') : tool ? t('agentTabs.tools.form.update') : t('agentTabs.tools.form.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
