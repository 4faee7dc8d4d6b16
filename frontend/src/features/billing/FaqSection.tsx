import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';

/** The six questions of plan selection; the answers are the statements of SPEC §9. */
export const FAQ_ITEMS = ['changePlan', 'cancelFees', 'refunds', 'monthly', 'immediate', 'payment'] as const;

export function FaqSection() {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="billing-faq-title">
      <Typography id="billing-faq-title" variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('billing.faq.title')}
      </Typography>
      {FAQ_ITEMS.map((id) => (
        <Accordion key={id} disableGutters variant="outlined" sx={{ '&:not(:last-of-type)': { borderBottom: 0 } }}>
          <AccordionSummary expandIcon={<ExpandMore />} aria-controls={`faq-${id}-content`} id={`faq-${id}-header`}>
            <Typography sx={{ fontWeight: 600 }}>{t(`billing.faq.${id}.q`)}</Typography>
          </AccordionSummary>
          <AccordionDetails id={`faq-${id}-content`}>
            <Typography color="text.secondary">{t(`billing.faq.${id}.a`)}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}
