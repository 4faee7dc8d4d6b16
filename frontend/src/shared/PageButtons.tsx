import Button from '@mui/material/Button';
import { pageWindow } from './pagination';

/** Up to 5 numbered page buttons centred on the current one (the contacts list, the call log); `goToLabel` names each. */
export function PageButtons({
  page,
  totalPages,
  disabled,
  onPage,
  goToLabel,
}: {
  page: number;
  totalPages: number;
  disabled: boolean;
  onPage: (page: number) => void;
  goToLabel: (page: number) => string;
}) {
  return pageWindow(page, totalPages).map((p) => (
    <Button
      key={p}
      size="small"
      variant={p === page ? 'contained' : 'text'}
      aria-label={goToLabel(p)}
      aria-current={p === page ? 'page' : undefined}
      disabled={disabled}
      onClick={() => p !== page && onPage(p)}
      sx={{ minWidth: 36, px: 1 }}
    >
      {p}
    </Button>
  ));
}
