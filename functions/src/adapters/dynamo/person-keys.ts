/**
 * A person's own items inside their account's partition (issue 32; ACCESS-PATTERNS.md "Per person"):
 * the bell (NOTIF#…, NOTIFCOUNT, NOTIFKEY#…) and the Web Push devices and settings of each member
 * live under pk=USER#{account} with the sort key prefixed by `PERSON#{personId}#`, so no query ever
 * leaves the account and deleting the account deletes them. The account's own person (person id =
 * account id: the owner of every single-user account) keeps the unprefixed keys of before, so
 * nothing is migrated and their existing items stay where they are. `PERSON#` begins no other sort
 * key of a USER# partition, so the owner's begins_with(NOTIF#)/(PUSHDEV#) never sees a member's.
 */
export const personSk = (accountId: string, personId: string, sk: string): string => (personId === accountId ? sk : `PERSON#${personId}#${sk}`);
