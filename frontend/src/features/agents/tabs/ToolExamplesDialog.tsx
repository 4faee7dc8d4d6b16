/** 'View Examples' (SPEC §2 Custom Tools): example tools; choosing one opens the form prefilled with it. */
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { TOOL_EXAMPLES, exampleToForm } from './toolExamples';
import type { ToolFormValues } from './toolForm';

interface ToolExamplesDialogProps {
  open: boolean;
  onClose: () => void;
  onChoose: (values: ToolFormValues) => void;
}

export function ToolExamplesDialog({ open, onClose, onChoose }: ToolExamplesDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="tool-examples-title">
      <DialogTitle id="tool-examples-title">{t('agentTabs.tools.examples.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('agentTabs.tools.examples.intro')}
        </Typography>
        <Stack spacing={1.5}>
          {TOOL_EXAMPLES.map((example) => {
            const title = t(`agentTabs.tools.examples.${example.id}.title`);
            return (
              <Paper key={example.id} variant="outlined" sx={{ p: 2 }}>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
                  <Stack spacing={0.5} sx={{ minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t(`agentTabs.tools.examples.${example.id}.summary`)}
                    </Typography>
                    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Chip size="small" label={example.method} color="primary" variant="outlined" />
                      <Typography variant="caption" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                        {example.name}({example.parameters.map((p) => p.name).join(', ')})
                      </Typography>
                    </Stack>
                  </Stack>
                  <Button
                    variant="outlined"
                    sx={{ flexShrink: 0 }}
                    aria-label={t('agentTabs.tools.examples.useAria', { title })}
                    onClick={() => onChoose(exampleToForm(example, t))}
                  >
                    {t('agentTabs.tools.examples.use')}
                  </Button>
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose}>{t('agentTabs.common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
