/**
 * The retention re-stamp's media half (issue 33): the objects under an account's media prefix,
 * listed a page at a time in key order (ListObjectsV2 `start-after`: the job's cursor is the last
 * key done), and each one's `retention` tag set again (PutObjectTagging replaces the tag set: a
 * media object carries only that tag). The bucket's lifecycle rule of the tag counts from the
 * object's creation, so an object older than its new retention goes at the next lifecycle run.
 *
 *   GET /{bucket}?list-type=2&max-keys=200&prefix={p}&start-after={k}   → <Contents><Key>…, <IsTruncated>
 *   PUT /{bucket}/{key}?tagging   <Tagging><TagSet><Tag><Key>retention</Key><Value>30d</Value>…
 *
 * Plain fetch + SigV4 (S3BucketRequests, shared with the account deletion's S3PrefixDeleter).
 * IAM: s3:ListBucket on the bucket (uploads:list) and s3:PutObjectTagging on whatsapp-media/*
 * (whatsapp-media:write), both already the privacy-jobs worker's.
 */
import { escapeRfc3986 } from './aws/sigv4.js';
import { MEDIA_RETENTION_TAG } from './s3-media.js';
import { listedKeys, S3BucketRequests } from './s3-prefix-delete.js';
import type { MediaRetentionTags } from '../domain/privacy/retention-restamp.js';

const PAGE_KEYS = 200;

export function retentionTaggingBody(value: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet><Tag><Key>${MEDIA_RETENTION_TAG.key}</Key><Value>${value}</Value></Tag></TagSet></Tagging>`;
}

export class S3RetentionTagger extends S3BucketRequests implements MediaRetentionTags {
  async list(prefix: string, after: string | undefined): Promise<{ keys: string[]; more: boolean }> {
    if (!prefix.endsWith('/') || prefix.length < 3) throw new Error(`Refusing to list the prefix "${prefix}"`);
    const query = `list-type=2&max-keys=${PAGE_KEYS}&prefix=${escapeRfc3986(prefix)}${after ? `&start-after=${escapeRfc3986(after)}` : ''}`;
    const listed = await this.request('ListObjectsV2', 'GET', query);
    return { keys: listedKeys(listed).filter((k) => k.startsWith(prefix)), more: /<IsTruncated>true<\/IsTruncated>/.test(listed) };
  }

  async tag(key: string, value: string): Promise<void> {
    if (!/^\d+d$/.test(value)) throw new Error(`Not a retention tag: "${value}"`);
    try {
      await this.request('PutObjectTagging', 'PUT', 'tagging=', retentionTaggingBody(value), key);
    } catch (error) {
      // Deleted since it was listed (an erasure, the lifecycle): nothing to tag.
      if (/answered HTTP 404/.test(String((error as Error).message))) return;
      throw error;
    }
  }
}
