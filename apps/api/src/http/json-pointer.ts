/** A name as one segment of a JSON pointer (RFC 6901), as error `details` name fields: `~` and `/` escaped. */
export const pointerSegment = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The name one segment of a JSON pointer stands for. */
export const segmentName = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');
