import type { optionsEn } from '../en/options';

export const optionsFr: Record<keyof typeof optionsEn, string> = {
  'options.title': 'Paramètres de Compliance Lens',
  'options.intro':
    'Choisissez les services que Compliance Lens consulte, les sites où il cherche des liens de partage et la fréquence de ses requêtes.',
  'options.loading': 'Chargement des paramètres…',
  'options.loadError.title': 'Vos paramètres n’ont pas pu être chargés',
  'options.loadError.detail':
    'Réessayez. Si le problème persiste, redémarrez le navigateur ou contactez votre administrateur.',
  'options.retry': 'Réessayer',
  'options.locked': 'Défini par votre administrateur',
  'options.saving': 'Enregistrement…',
  'options.saved': 'Enregistré',
  'options.saveError': 'Non enregistré : {reason}',

  'services.heading': 'Services de conformité',
  'services.description':
    'Un lien n’est reconnu que s’il mène à l’un de ces services, et les jetons des liens de partage ne sont envoyés qu’à eux.',
  'services.empty.title': 'Aucun service pour l’instant',
  'services.empty.detail': 'Ajoutez le service de statut de conformité depuis lequel vos fondateurs partagent leurs liens.',
  'services.managed': 'Géré',
  'services.access.granted': 'Accès autorisé',
  'services.access.missing': 'Accès pas encore autorisé : les liens vers ce service ne sont pas lus.',
  'services.access.checking': 'Vérification de l’accès…',
  'services.access.allow': 'Autoriser l’accès',
  'services.access.allowNamed': 'Autoriser l’accès à {name}',
  'services.access.denied': 'L’accès à {origin} n’a pas été autorisé : les liens vers {name} ne sont pas lus.',
  'services.access.granting': 'En attente de votre réponse dans la fenêtre du navigateur…',
  'services.edit': 'Modifier',
  'services.editNamed': 'Modifier {name}',
  'services.remove': 'Supprimer',
  'services.removeNamed': 'Supprimer {name}',
  'services.added': '{name} ajouté.',
  'services.updated': '{name} enregistré.',
  'services.removed': '{name} supprimé.',
  'services.add.heading': 'Ajouter un service',
  'services.add.open': 'Ajouter un service',
  'services.add.submit': 'Ajouter le service',
  'services.editForm.heading': 'Modifier {name}',
  'services.save': 'Enregistrer les modifications',
  'services.cancel': 'Annuler',
  'services.lockedList':
    'Votre administrateur gère cette liste : vous ne pouvez pas y ajouter ni y modifier de services.',
  'services.apiPath': 'Chemin de l’API',
  'services.sharePaths': 'Pages de partage',
  'services.noSharePaths': 'aucune',
  'services.field.name': 'Nom',
  'services.field.name.hint': 'Affiché dans cette liste, par exemple « Compliance Status ».',
  'services.field.origin': 'Origine',
  'services.field.origin.hint': 'Schéma, hôte et port uniquement, par exemple https://comply.example',
  'services.field.apiPath': 'Modèle de chemin de l’API',
  'services.field.apiPath.hint': 'Commence par / et contient {placeholder}.',
  'services.field.sharePaths': 'Modèles de chemin des pages de partage',
  'services.field.sharePaths.hint':
    'Un par ligne. Chacun commence par / et contient {placeholder}. Peut rester vide.',
  'services.error.summary': 'Vérifiez les champs signalés.',
  'services.error.name': 'Le nom est obligatoire (80 caractères au plus).',
  'services.error.origin':
    'L’origine doit être une origine http ou https sans chemin, comme https://comply.example (sans barre oblique finale).',
  'services.error.originTaken': 'L’origine est déjà utilisée par « {name} ».',
  'services.error.apiPath': 'Le modèle de chemin de l’API doit commencer par / et contenir {placeholder}.',
  'services.error.sharePath':
    'Le modèle de chemin de page de partage de la ligne {line} doit commencer par / et contenir {placeholder}.',
  'services.error.tooMany': 'Vous pouvez conserver 50 services au plus. Supprimez-en un d’abord.',
  'services.error.permissionDenied':
    'L’accès à {origin} n’a pas été autorisé : le service n’a donc pas été enregistré. Réessayez et choisissez Autoriser lorsque le navigateur vous le demande.',
  'services.error.permissionFailed': 'Le navigateur n’a pas pu demander l’accès à {origin} : {reason}',

  'sites.heading': 'Sites supplémentaires',
  'sites.description':
    'Compliance Lens cherche aussi des liens de partage sur ces sites, par exemple votre CRM. Chacun nécessite votre autorisation.',
  'sites.empty': 'Aucun site supplémentaire pour l’instant.',
  'sites.field': 'Nom d’hôte',
  'sites.field.hint': 'Par exemple crm.example.com, ou *.example.com pour tous les sous-domaines.',
  'sites.add': 'Ajouter le site',
  'sites.removeNamed': 'Supprimer {site}',
  'sites.added': '{site} ajouté.',
  'sites.removed': '{site} supprimé.',
  'sites.error.invalid':
    'Le nom d’hôte doit ressembler à crm.example.com ou *.example.com (sans https://, sans chemin).',
  'sites.error.duplicate': 'Le nom d’hôte {site} figure déjà dans la liste.',
  'sites.error.tooMany': 'Vous pouvez ajouter 200 sites au plus.',
  'sites.error.permissionDenied': 'L’accès à {site} n’a pas été autorisé : le site n’a donc pas été ajouté.',

  'fetching.heading': 'Quand les instantanés sont récupérés',
  'fetching.note':
    'Repérer un lien ne déclenche aucune requête. Chaque récupération compte comme une consultation pour le fondateur qui a partagé le lien.',
  'fetchMode.label': 'Récupérer les instantanés',
  'fetchMode.intent': 'Seulement sur intention',
  'fetchMode.intent.hint':
    'Quand vous laissez le pointeur sur un lien, appuyez sur Entrée dessus ou cliquez sur son badge.',
  'fetchMode.prefetch': 'Précharger aussi les liens visibles sur la page',
  'fetchMode.prefetch.hint':
    'Les fiches s’ouvrent plus vite, mais chaque lien visible compte comme une consultation pour son fondateur.',
  'hoverDelay.label': 'Délai de survol',
  'hoverDelay.hint': 'Durée pendant laquelle le pointeur doit rester sur un lien avant que son instantané soit récupéré.',
  'hoverDelay.option': '{ms} ms',
  'cacheTtl.label': 'Conserver les instantanés pendant',
  'cacheTtl.hint': 'Jamais au-delà de l’expiration du lien de partage lui-même.',
  'cacheTtl.minutes#one': '{count} minute',
  'cacheTtl.minutes#other': '{count} minutes',
  'cacheTtl.hours#one': '{count} heure',
  'cacheTtl.hours#other': '{count} heures',
  'budget.label': 'Requêtes par minute, par service',
  'budget.hint':
    'De {min} à {max}. Le service accepte 60 requêtes par minute par adresse IP, et tout votre bureau partage cette adresse : gardez cette valeur basse.',
  'budget.error': 'Le nombre de requêtes par minute doit être un nombre entier de {min} à {max}.',
  'budget.save': 'Enregistrer',

  'cache.heading': 'Mémoire cache',
  'cache.persist.label': 'Conserver les instantanés en cache après la fermeture du navigateur',
  'cache.persist.hint':
    'Désactivé (recommandé) : les instantanés restent dans le stockage de session et disparaissent à la fermeture du navigateur. Désactiver cette option supprime les instantanés conservés sur le disque.',
  'cache.count#one': '{count} instantané en cache.',
  'cache.count#other': '{count} instantanés en cache.',
  'cache.countUnavailable': 'Le nombre d’instantanés en cache n’est pas disponible pour le moment.',
  'cache.clear': 'Vider le cache',
  'cache.clearing': 'Vidage…',
  'cache.cleared#one': '{count} entrée supprimée du cache.',
  'cache.cleared#other': '{count} entrées supprimées du cache.',
  'cache.clearError': 'Le cache n’a pas pu être vidé : {reason}',

  'language.heading': 'Langue',
  'language.label': 'Langue d’affichage',
  'language.hint': 'Les dates et les nombres suivent la langue choisie.',
  'language.auto': 'Comme le navigateur ({language})',
  'language.en': 'English',
  'language.fr': 'Français',

  'privacy.heading': 'Ce que Compliance Lens envoie et conserve',
  'privacy.token':
    'Il n’envoie que le jeton d’un lien de partage, et uniquement aux origines des services listés ci-dessus.',
  'privacy.when':
    'Il ne l’envoie que lorsque vous manifestez une intention (pointeur posé sur un lien, touche Entrée sur ce lien, clic sur son badge) ou agissez explicitement dans la fenêtre contextuelle ou le panneau latéral — ou pour les liens visibles, si vous activez le préchargement.',
  'privacy.views': 'Chaque récupération compte comme une consultation pour le fondateur qui a partagé le lien.',
  'privacy.stores':
    'Il conserve vos paramètres et les instantanés récupérés. Par défaut, les instantanés restent dans le stockage de session, que le navigateur vide à sa fermeture.',
  'privacy.nothingElse': 'Rien n’est envoyé ailleurs. Aucune mesure d’audience, aucun pistage, aucune publicité.',
};
