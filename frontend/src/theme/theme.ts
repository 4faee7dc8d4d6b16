import { createTheme } from '@mui/material/styles';

/**
 * The AgentDesk look: indigo primary, soft neutral background, rounded surfaces. Every palette
 * colour reaches WCAG AA (4.5:1) both as text on white / the page background and under white
 * text (filled chips, contained buttons): MUI's default warning and info and the former sky and
 * green did not (issue 19; frontend/e2e/accessibility.test.ts runs axe on the main screens).
 */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#4f46e5', light: '#818cf8', dark: '#3730a3', contrastText: '#ffffff' },
    secondary: { main: '#0e7490' },
    success: { main: '#15803d' },
    warning: { main: '#b45309' },
    info: { main: '#0369a1' },
    background: { default: '#f6f7fb', paper: '#ffffff' },
    text: { primary: '#111827', secondary: '#4b5563' },
    divider: '#e5e7eb',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontWeight: 700 },
    h2: { fontWeight: 700 },
    h3: { fontWeight: 700 },
    h4: { fontWeight: 700 },
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 14 } } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiListItemButton: { styleOverrides: { root: { borderRadius: 8 } } },
  },
});
