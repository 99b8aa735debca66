/**
 * Link recognition: which anchors are compliance-status share links (DESIGN decision 3).
 * Framework-free; safe to import from the content script, the background and the UI.
 */
export { createLinkRecognizer, getLinkRecognizer, MAX_LINK_LENGTH, recognizeAnchor, recognizeLink } from './recognize';
export type { AnchorLike, LinkAttributes, LinkInput, LinkKind, LinkRecognizer, RecognizedLink } from './recognize';
export { parseUserInput } from './user-input';
export type { UserInput, UserInputProblem } from './user-input';
export {
  decodeGoogleRedirect,
  decodeLinkedInRedirect,
  decodeOutlookSafelinkHtml,
  decodeProofpointV1,
  decodeProofpointV2,
  decodeProofpointV3,
  decodeProofpointV3Payload,
  decodeSafeLinks,
  decodeSlackRedirect,
  decodeTrendMicroClickTime,
  isWrapperHost,
  MAX_UNWRAP_DEPTH,
  MAX_UNWRAP_LENGTH,
  unwrapOnce,
  unwrapUrl,
  unwrapUrlTrace,
} from './unwrap';
export type { WrapperFormat } from './unwrap';
export { base64urlDecode, htmlUnescape, percentDecode } from './decode';
