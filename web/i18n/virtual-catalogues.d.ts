// The compiled catalogue of a language (scripts/vite/i18n-catalogues.ts): `<namespace>.<key>` → a
// Lingui compiled message.
declare module 'virtual:i18n-catalogue/*' {
  const messages: Record<string, unknown>;
  export default messages;
}
