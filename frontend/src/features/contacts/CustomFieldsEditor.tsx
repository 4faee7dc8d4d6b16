/** Custom field rows ('Field name' / 'Field value', remove) and 'Add Field'; the list scrolls at about 10rem. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useFieldArray, type Control, type UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ContactFormInput, ContactFormValues } from './form';

interface CustomFieldsEditorProps {
  control: Control<ContactFormInput, unknown, ContactFormValues>;
  register: UseFormRegister<ContactFormInput>;
  /** The list's height before it scrolls (the spec's modal: about 10rem). */
  maxHeight?: string;
  /** Show the 'Custom Fields' heading (off where the surrounding card already has it). */
  showTitle?: boolean;
}

export function CustomFieldsEditor({ control, register, maxHeight = '10rem', showTitle = true }: CustomFieldsEditorProps) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'customFields' });
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Box>
          {showTitle && (
            <Typography variant="subtitle2" component="h3">
              {t('contacts.form.customFields')}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary">
            {t('contacts.form.customFieldsHint')}
          </Typography>
        </Box>
        <Button size="small" startIcon={<AddOutlined />} onClick={() => append({ name: '', value: '' }, { shouldFocus: true })}>
          {t('contacts.form.addField')}
        </Button>
      </Stack>
      {fields.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
          {t('contacts.form.noCustomFields')}
        </Typography>
      ) : (
        <Stack spacing={1.5} sx={{ maxHeight, overflowY: 'auto', pt: 1, pr: 0.5 }} data-testid="custom-fields-list">
          {fields.map((field, index) => (
            <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <TextField size="small" label={t('contacts.form.fieldName')} sx={{ flex: 1 }} {...register(`customFields.${index}.name`)} />
              <TextField size="small" label={t('contacts.form.fieldValue')} sx={{ flex: 1.4 }} {...register(`customFields.${index}.value`)} />
              <IconButton size="small" aria-label={t('contacts.form.removeField', { n: index + 1 })} onClick={() => remove(index)}>
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Stack>
          ))}
        </Stack>
      )}
    </Box>
  );
}
