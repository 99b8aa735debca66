import type { badgeEn } from '../en/badge';

export const badgeFr: Record<keyof typeof badgeEn, string> = {
  'badge.hint': 'Appuyez sur Entrée pour les détails.',
  'badge.idle.label':
    'Compliance Lens : instantané de conformité non chargé — survolez ou appuyez sur Entrée pour le charger (compte comme une consultation)',
  'badge.loading.label': 'Compliance Lens : instantané de conformité — chargement',
  'badge.ready.label': 'Instantané de conformité : préparation {score}/100, {readiness} ; {band}. {hint}',
  'badge.ready.signatureFails.label':
    'Instantané de conformité : sa signature ne correspond pas à la clé du service ; il se peut que ce ne soit pas ce que le service a envoyé. {hint}',
  'badge.readiness.critical': 'Critique',
  'badge.readiness.inProgress': 'En cours',
  'badge.readiness.goodStanding': 'En règle',
  'badge.readiness.regulatorReady': 'Prêt pour le régulateur',
  'badge.band.spoken.high': 'risque de levée de fonds élevé',
  'badge.band.spoken.medium': 'risque de levée de fonds moyen',
  'badge.band.spoken.low': 'risque de levée de fonds faible',
  'badge.band.spoken.investor_ready': 'prêt pour les investisseurs',
  'badge.error.notFound.label':
    'Instantané de conformité indisponible : le service ne connaît pas ce lien de partage (révoqué avant que vous ne l’ouvriez, ou mal recopié). {hint}',
  'badge.error.withdrawn.label':
    'Instantané de conformité retiré : le fondateur a révoqué ce lien de partage depuis votre dernier chargement. {hint}',
  'badge.error.expired.label': 'Instantané de conformité indisponible : ce lien de partage a expiré. {hint}',
  'badge.error.expiredOn.label': 'Instantané de conformité indisponible : ce lien de partage a expiré le {date}. {hint}',
  'badge.error.rateLimited.label':
    'Instantané de conformité indisponible : trop de requêtes depuis votre réseau ; réessayez dans un instant.',
  'badge.error.retryAt.label':
    'Instantané de conformité indisponible : trop de requêtes depuis votre réseau ; réessayez après {time}.',
  'badge.error.network.label':
    'Instantané de conformité indisponible : le service est injoignable. Survolez ou appuyez sur Entrée pour réessayer.',
  'badge.error.timeout.label':
    'Instantané de conformité indisponible : le service n’a pas répondu à temps. Survolez ou appuyez sur Entrée pour réessayer.',
  'badge.error.invalidResponse.label':
    'Instantané de conformité indisponible : le service a renvoyé des données impossibles à vérifier, rien n’est donc affiché.',
  'badge.error.forbiddenOrigin.label':
    'Instantané de conformité indisponible : ce service n’est pas activé dans les paramètres de Compliance Lens, rien ne lui a donc été envoyé.',
  'badge.error.unknown.label': 'Instantané de conformité indisponible : une erreur inattendue s’est produite ({code}).',
};
