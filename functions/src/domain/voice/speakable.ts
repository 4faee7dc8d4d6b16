/**
 * Text a voice speaks (both call paths): no markdown, links or emphasis characters a voice would
 * read out. On its own so the voice-relay bundle does not load the call loop's module.
 */
export function speakable(text: string): string {
  return text
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/[*_`#>|]+/g, '')
    .replace(/^\s*[-•]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}
