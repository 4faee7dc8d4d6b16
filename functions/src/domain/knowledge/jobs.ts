/** Queue message bodies of the ingestion workers (SQS JSON bodies). */
export interface FileIngestJob {
  userId: string;
  agentId: string;
  fileId: string;
}

export interface UrlScrapeJob {
  userId: string;
  agentId: string;
  urlId: string;
  /** true for the "Refresh" action: replace chunks only when the extracted text changed. */
  refresh?: boolean;
}
