// The compiled catalogues (scripts/vite/i18n-catalogues.ts): `<namespace>.<key>` → a Lingui
// compiled message. `virtual:i18n-catalogue/<lang>` is the core namespaces (portal, validation),
// `virtual:i18n-catalogue/<lang>/<namespace>` one other namespace.
declare module 'virtual:i18n-catalogue/*' {
  const messages: Record<string, unknown>;
  export default messages;
}

// A namespace a screen loads with itself (web/i18n `<I18nNamespace>`): its English messages and a
// loader for each other language.
declare module 'virtual:i18n-namespace/*' {
  const catalogue: import('./catalogues').NamespaceCatalogue;
  export default catalogue;
}
