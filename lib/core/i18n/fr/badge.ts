import type { badgeEn } from '../en/badge';

export const badgeFr: Record<keyof typeof badgeEn, string> = {
  'badge.brand': 'CL',
  'badge.hint': 'Appuyez sur Entrée pour les détails.',
  'badge.idle.label': 'Instantané de conformité — survolez ou appuyez sur Entrée pour le charger (compte comme une consultation)',
  'badge.loading.label': 'Instantané de conformité — chargement',
  'badge.ready.text': '{score} · {band}',
  'badge.ready.label': 'Instantané de conformité : préparation {score} sur 100, {readiness} ; {band}. {hint}',
  'badge.readiness.critical': 'Critique',
  'badge.readiness.inProgress': 'En cours',
  'badge.readiness.goodStanding': 'En règle',
  'badge.readiness.regulatorReady': 'Prêt pour le régulateur',
  'badge.band.short.high': 'Élevé',
  'badge.band.short.medium': 'Moyen',
  'badge.band.short.low': 'Faible',
  'badge.band.short.investor_ready': 'Investissable',
  'badge.band.spoken.high': 'risque de levée de fonds élevé',
  'badge.band.spoken.medium': 'risque de levée de fonds moyen',
  'badge.band.spoken.low': 'risque de levée de fonds faible',
  'badge.band.spoken.investor_ready': 'prêt pour les investisseurs',
  'badge.error.notFound.text': 'Lien invalide',
  'badge.error.notFound.label':
    'Instantané de conformité indisponible : ce lien de partage est invalide ou a été révoqué. {hint}',
  'badge.error.expired.text': 'Expiré',
  'badge.error.expiredOn.text': 'Expiré le {date}',
  'badge.error.expired.label': 'Instantané de conformité indisponible : ce lien de partage a expiré. {hint}',
  'badge.error.expiredOn.label': 'Instantané de conformité indisponible : ce lien de partage a expiré le {date}. {hint}',
  'badge.error.rateLimited.text': 'Occupé',
  'badge.error.rateLimited.label':
    'Instantané de conformité indisponible : trop de requêtes depuis votre réseau ; réessayez dans un instant.',
  'badge.error.retryAt.text': 'Réessayer {when}',
  'badge.error.retryAt.label': 'Instantané de conformité indisponible : trop de requêtes depuis votre réseau ; réessayez {when}.',
  'badge.error.network.text': 'Hors ligne',
  'badge.error.network.label':
    'Instantané de conformité indisponible : le service est injoignable. Survolez ou appuyez sur Entrée pour réessayer.',
  'badge.error.timeout.text': 'Sans réponse',
  'badge.error.timeout.label':
    'Instantané de conformité indisponible : le service n’a pas répondu à temps. Survolez ou appuyez sur Entrée pour réessayer.',
  'badge.error.invalidResponse.text': 'Illisible',
  'badge.error.invalidResponse.label':
    'Instantané de conformité indisponible : le service a renvoyé des données impossibles à vérifier, rien n’est donc affiché.',
  'badge.error.forbiddenOrigin.text': 'Non activé',
  'badge.error.forbiddenOrigin.label':
    'Instantané de conformité indisponible : ce service n’est pas activé dans les paramètres de Compliance Lens, rien ne lui a donc été envoyé.',
  'badge.error.unknown.text': 'Erreur',
  'badge.error.unknown.label': 'Instantané de conformité indisponible : une erreur inattendue s’est produite ({code}).',
};
