/**
 * The fake Graph API's checks of a send that carries more than text (issue 31): media by id
 * (image, document, audio, video, sticker), a location, and interactive reply buttons or lists, in
 * Meta's shapes and limits (Cloud API "Document / Image messages", "Location messages",
 * "Interactive reply buttons messages", "Interactive list messages"). A bad send gets Meta's own
 * answer: 400 with code 131008 "Required parameter is missing" or 131009 "Parameter value is not
 * valid", and error_data.details saying which (what the app stores as the failure's reason).
 */

/** Meta's refusal of a send: its code, message and details (server.ts answers it as a 400 Graph error). */
export interface ContentRefusal {
  code: number;
  message: string;
  details: string;
}

export interface ContentCheckOptions {
  /**
   * Whether a media id is one uploaded to this fake (POST /{phoneId}/media). Absent: any id in
   * Meta's format (digits) is accepted.
   */
  isUploaded?: (mediaId: string) => boolean;
}

/** Meta's limits of the interactive messages it takes (its docs; contract MEDIA_LIMITS holds the app's copy). */
export const META_INTERACTIVE_LIMITS = {
  bodyChars: 1024,
  footerChars: 60,
  headerChars: 60,
  buttons: { min: 1, max: 3, titleChars: 20, idChars: 256 },
  list: { buttonChars: 20, maxSections: 10, maxRows: 10, sectionTitleChars: 24, rowTitleChars: 24, rowDescriptionChars: 72, rowIdChars: 200 },
  captionChars: 1024,
} as const;

const MEDIA_SEND_TYPES = new Set(['image', 'document', 'audio', 'video', 'sticker']);
/** A Meta media id: digits (e.g. 1013859600285441). */
const MEDIA_ID_RE = /^\d{6,25}$/;

const missing = (details: string): ContentRefusal => ({ code: 131008, message: '(#131008) Required parameter is missing', details });
const invalid = (details: string): ContentRefusal => ({ code: 131009, message: '(#131009) Parameter value is not valid', details });

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Characters as WhatsApp counts them (code points: an emoji is one). */
const chars = (s: string) => [...s].length;

function lengthRefusal(value: unknown, field: string, max: number, min = 1): ContentRefusal | null {
  if (value === undefined || value === null || value === '') return min > 0 ? missing(`Parameter '${field}' is required`) : null;
  if (typeof value !== 'string') return invalid(`${field} must be a string`);
  const n = chars(value.trim() ? value : '');
  if (n < min || chars(value) > max) return invalid(`${field} length invalid. Min length: ${min}, Max length: ${max}`);
  return null;
}

function checkMedia(type: string, payload: Obj, options: ContentCheckOptions): ContentRefusal | null {
  const media = payload[type];
  if (!isObj(media)) return missing(`Parameter '${type}' is required`);
  const id = media.id;
  const link = media.link;
  if (id === undefined && link === undefined) return missing(`${type} requires either id or link`);
  if (id !== undefined && link !== undefined) return invalid(`${type} takes either id or link, not both`);
  if (id !== undefined) {
    if (typeof id !== 'string' || !MEDIA_ID_RE.test(id)) return invalid(`${type}['id'] is not a valid WhatsApp business account media attachment ID`);
    if (options.isUploaded && !options.isUploaded(id)) return invalid(`${type}['id'] ${id} is not a media uploaded by this business`);
  } else if (typeof link !== 'string' || !/^https?:\/\//.test(link)) {
    return invalid(`${type}['link'] must be an http(s) URL`);
  }
  if (media.caption !== undefined) {
    if (type === 'audio' || type === 'sticker') return invalid(`${type} does not take a caption`);
    const refusal = lengthRefusal(media.caption, `${type}['caption']`, META_INTERACTIVE_LIMITS.captionChars, 0);
    if (refusal) return refusal;
  }
  if (media.filename !== undefined && (type !== 'document' || typeof media.filename !== 'string')) return invalid(`filename is only taken by a document, as a string`);
  return null;
}

/** Meta takes the coordinates as numbers or numeric strings. */
function coordinate(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function checkLocation(payload: Obj): ContentRefusal | null {
  const location = payload.location;
  if (!isObj(location)) return missing("Parameter 'location' is required");
  if (location.latitude === undefined) return missing("Parameter 'location.latitude' is required");
  if (location.longitude === undefined) return missing("Parameter 'location.longitude' is required");
  const lat = coordinate(location.latitude);
  const lng = coordinate(location.longitude);
  if (lat === null || Math.abs(lat) > 90) return invalid('location.latitude must be a number between -90 and 90');
  if (lng === null || Math.abs(lng) > 180) return invalid('location.longitude must be a number between -180 and 180');
  for (const field of ['name', 'address'] as const) {
    if (location[field] !== undefined && typeof location[field] !== 'string') return invalid(`location.${field} must be a string`);
  }
  return null;
}

function checkButtons(action: Obj): ContentRefusal | null {
  const L = META_INTERACTIVE_LIMITS.buttons;
  const buttons = action.buttons;
  if (!Array.isArray(buttons) || buttons.length === 0) return missing("Parameter 'action.buttons' is required");
  if (buttons.length > L.max) return invalid(`Invalid buttons count. Min allowed buttons: ${L.min}, Max allowed buttons: ${L.max}`);
  const ids = new Set<string>();
  const titles = new Set<string>();
  for (const button of buttons as unknown[]) {
    if (!isObj(button) || button.type !== 'reply' || !isObj(button.reply)) return invalid("Each button must be {type: 'reply', reply: {id, title}}");
    const { id, title } = button.reply;
    const refusal = lengthRefusal(title, 'Button title', L.titleChars) ?? lengthRefusal(id, 'Button id', L.idChars);
    if (refusal) return refusal;
    if (ids.has(id as string)) return invalid('Duplicate buttons. Button ids must be unique');
    if (titles.has(title as string)) return invalid('Duplicate buttons. Button titles must be unique');
    ids.add(id as string);
    titles.add(title as string);
  }
  return null;
}

function checkList(action: Obj): ContentRefusal | null {
  const L = META_INTERACTIVE_LIMITS.list;
  const button = lengthRefusal(action.button, 'action.button', L.buttonChars);
  if (button) return button;
  const sections = action.sections;
  if (!Array.isArray(sections) || sections.length === 0) return missing("Parameter 'action.sections' is required");
  if (sections.length > L.maxSections) return invalid(`Invalid number of sections. Max allowed: ${L.maxSections}`);
  const ids = new Set<string>();
  let rows = 0;
  for (const section of sections as unknown[]) {
    if (!isObj(section)) return invalid('Each section must be an object with rows');
    // A title is required once there is more than one section.
    if (section.title !== undefined || sections.length > 1) {
      const title = lengthRefusal(section.title, 'Section title', L.sectionTitleChars);
      if (title) return title;
    }
    if (!Array.isArray(section.rows) || section.rows.length === 0) return missing("Parameter 'section.rows' is required");
    for (const row of section.rows as unknown[]) {
      rows += 1;
      if (!isObj(row)) return invalid('Each row must be {id, title, description?}');
      const refusal =
        lengthRefusal(row.title, 'Row title', L.rowTitleChars) ??
        lengthRefusal(row.id, 'Row id', L.rowIdChars) ??
        lengthRefusal(row.description, 'Row description', L.rowDescriptionChars, 0);
      if (refusal) return refusal;
      if (ids.has(row.id as string)) return invalid('Row ids must be unique within the message');
      ids.add(row.id as string);
    }
  }
  if (rows > L.maxRows) return invalid(`Total row count exceeded. Max allowed: ${L.maxRows}`);
  return null;
}

function checkInteractive(payload: Obj): ContentRefusal | null {
  const interactive = payload.interactive;
  if (!isObj(interactive)) return missing("Parameter 'interactive' is required");
  const kind = interactive.type;
  if (kind !== 'button' && kind !== 'list') return invalid(`interactive.type ${String(kind)} is not supported (button, list)`);
  if (!isObj(interactive.body)) return missing("Parameter 'interactive.body' is required");
  const body = lengthRefusal(interactive.body.text, 'Body text', META_INTERACTIVE_LIMITS.bodyChars);
  if (body) return body;
  if (interactive.footer !== undefined) {
    const footer = isObj(interactive.footer) ? lengthRefusal(interactive.footer.text, 'Footer text', META_INTERACTIVE_LIMITS.footerChars) : invalid('footer must be {text}');
    if (footer) return footer;
  }
  if (!isObj(interactive.action)) return missing("Parameter 'interactive.action' is required");
  return kind === 'button' ? checkButtons(interactive.action) : checkList(interactive.action);
}

/**
 * Meta's refusal of a send of `type` (media, location, interactive), or null when it is sound.
 * Text and template sends are server.ts's own checks.
 */
export function checkContent(type: string, payload: Obj, options: ContentCheckOptions = {}): ContentRefusal | null {
  if (MEDIA_SEND_TYPES.has(type)) return checkMedia(type, payload, options);
  if (type === 'location') return checkLocation(payload);
  if (type === 'interactive') return checkInteractive(payload);
  return null;
}
