/** A message type's icon (SPEC §4): ptt like audio, any other media type the generic media icon. */
import type { SvgIconProps } from '@mui/material/SvgIcon';
import AttachmentOutlined from '@mui/icons-material/AttachmentOutlined';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import EmojiEmotionsOutlined from '@mui/icons-material/EmojiEmotionsOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import MicNoneOutlined from '@mui/icons-material/MicNoneOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import SmartButtonOutlined from '@mui/icons-material/SmartButtonOutlined';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import { typeIconKind, type TypeIconKind } from './model';

const ICONS: Record<TypeIconKind, typeof ChatBubbleOutline> = {
  chat: ChatBubbleOutline,
  image: ImageOutlined,
  video: VideocamOutlined,
  audio: MicNoneOutlined,
  document: DescriptionOutlined,
  sticker: EmojiEmotionsOutlined,
  location: PlaceOutlined,
  contacts: PersonOutline,
  interactive: SmartButtonOutlined,
  media: AttachmentOutlined,
};

export function TypeIcon({ type, ...props }: { type: string } & SvgIconProps) {
  const Icon = ICONS[typeIconKind(type)];
  return <Icon aria-hidden {...props} />;
}
