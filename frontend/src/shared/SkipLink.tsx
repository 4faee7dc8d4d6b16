/**
 * "Skip to main content": the first thing Tab reaches on a signed-in page, shown only while it has
 * the focus (WCAG 2.4.1). It moves the focus to the page's <main> itself rather than following a
 * #fragment, which would add a history entry and a hash to the router's URL.
 */
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

export const MAIN_CONTENT_ID = 'main-content';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Box
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      data-testid="skip-link"
      onClick={(event) => {
        event.preventDefault();
        const main = document.getElementById(MAIN_CONTENT_ID);
        main?.focus();
        main?.scrollIntoView?.({ block: 'start' });
      }}
      sx={{
        position: 'fixed',
        left: 8,
        top: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.dark',
        fontWeight: 600,
        boxShadow: 3,
        outline: '2px solid',
        outlineColor: 'primary.main',
        // Off screen until focused (not display:none, which would take it out of the Tab order).
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {t('nav.skipToContent')}
    </Box>
  );
}
