/**
 * Bulk actions on the contacts list (issue 19): POST /api/contacts/bulk-delete {ids} and
 * POST /api/contacts/bulk-tag {ids, add?, remove?}; and the filters' choices (GET /api/contacts/facets).
 *
 * At most CONTACT_BULK_MAX_IDS ids per call (the list's "select all on page" sends 50 at most).
 * Ids that are not the caller's contacts (unknown, deleted meanwhile, or another user's) are
 * skipped and counted in `notFound`: the call still acts on the caller's own ones, and a foreign
 * id looks exactly like a missing one. Browser-safe.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { contactTags } from './contacts.js';

export const CONTACT_BULK_MAX_IDS = 500;
/**
 * The tag and custom-field filters (and the facets) look at this many contacts at most, newest
 * first; past it the list answers `filterTruncated` (ACCESS-PATTERNS.md, "Contacts: filters").
 */
export const CONTACT_FILTER_MAX_SCANNED = 10_000;

export const contactBulkMessages = {
  idsRequired: 'Select at least one contact',
  tooManyIds: `At most ${CONTACT_BULK_MAX_IDS} contacts can be changed at once`,
  idsInvalid: 'ids must be a list of contact ids',
  tagsRequired: 'Give at least one tag to add or remove',
  notObject: 'The request body must be a JSON object',
  unknownField: (name: string) => `Unknown field: ${name}`,
  deleted: 'Contacts deleted',
  tagged: 'Tags updated',
} as const;

const strictError = (issue: { code?: string; keys?: string[] }) => {
  if (issue.code === 'unrecognized_keys') return contactBulkMessages.unknownField(issue.keys?.[0] ?? '');
  if (issue.code === 'invalid_type') return contactBulkMessages.notObject;
  return undefined;
};

// Schemas marked pure (as in jobs.ts): the contract barrel reaches the login route through the
// i18n messages, and esbuild/rolldown keep an unannotated zod call even when nothing uses it.
/** Unique ids, in the order given. */
const bulkIds = /* @__PURE__ */ z.pipe(
  /* @__PURE__ */ z
    .array(
      /* @__PURE__ */ z
        .string({ error: contactBulkMessages.idsInvalid })
        .check(/* @__PURE__ */ z.trim(), /* @__PURE__ */ z.minLength(1, contactBulkMessages.idsInvalid), /* @__PURE__ */ z.maxLength(40, contactBulkMessages.idsInvalid)),
      { error: (issue) => (issue.input === undefined ? contactBulkMessages.idsRequired : contactBulkMessages.idsInvalid) },
    )
    .check(/* @__PURE__ */ z.minLength(1, contactBulkMessages.idsRequired), /* @__PURE__ */ z.maxLength(CONTACT_BULK_MAX_IDS, contactBulkMessages.tooManyIds)),
  /* @__PURE__ */ z.transform((ids: string[]) => [...new Set(ids)]),
);

/** POST /api/contacts/bulk-delete. */
export const bulkDeleteContactsRequest = /* @__PURE__ */ z.strictObject({ ids: bulkIds }, { error: strictError });
export type BulkDeleteContactsRequest = z.output<typeof bulkDeleteContactsRequest>;

/** POST /api/contacts/bulk-tag: `add` then `remove` (case-insensitive), at least one tag in all. */
export const bulkTagContactsRequest = /* @__PURE__ */ z
  .strictObject(
    {
      ids: bulkIds,
      add: /* @__PURE__ */ z._default(contactTags, []),
      remove: /* @__PURE__ */ z._default(contactTags, []),
    },
    { error: strictError },
  )
  .check(/* @__PURE__ */ z.refine((v) => v.add.length + v.remove.length > 0, { message: contactBulkMessages.tagsRequired, path: ['add'] }));
export type BulkTagContactsInput = z.input<typeof bulkTagContactsRequest>;
export type BulkTagContactsRequest = z.output<typeof bulkTagContactsRequest>;

/** POST /api/contacts/bulk-delete: data. */
export interface BulkDeleteContactsResult {
  deleted: number;
  /** Ids that are not (or no longer) the caller's contacts. */
  notFound: number;
}

/** POST /api/contacts/bulk-tag: data. */
export interface BulkTagContactsResult {
  updated: number;
  /** Contacts that already had every added tag and none of the removed ones. */
  unchanged: number;
  notFound: number;
  /** Contacts left as they were because the added tags would pass the per-contact tag limit. */
  tooManyTags: number;
}

/** A tag in use and how many of the looked-at contacts carry it. */
export interface ContactTagFacet {
  tag: string;
  count: number;
}

/** GET /api/contacts/facets: the filters' choices (tags and custom field names in use). */
export interface ContactFacets {
  tags: ContactTagFacet[];
  fields: string[];
  /** True when the directory has more contacts than the filters look at (only the newest were counted). */
  truncated: boolean;
}
