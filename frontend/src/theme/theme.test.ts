/**
 * WCAG AA (4.5:1) for the palette (issue 19: the Enabled/status chips and the outlined 'Disable'
 * button were ~3:1): each colour as text on white and on the page background, and white text on it.
 */
import { describe, expect, it } from 'vitest';
import { getContrastRatio } from '@mui/material/styles';
import { theme } from './theme';

describe('theme palette contrast', () => {
  it.each(['primary', 'secondary', 'success', 'warning', 'info', 'error'] as const)('%s reaches 4.5:1 both ways', (name) => {
    const { main, contrastText } = theme.palette[name];
    expect(getContrastRatio(main, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(main, theme.palette.background.default)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(contrastText, main)).toBeGreaterThanOrEqual(4.5);
  });
});
