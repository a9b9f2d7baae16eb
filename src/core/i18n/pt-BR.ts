// Português do Brasil. Typed `Messages`: a key en.ts has and this file lacks fails the type check.
import type { Messages } from './en.ts';
import { connectPtBR } from './connect-pt-BR.ts';

const andList = (items: readonly string[]): string =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} e ${items.at(-1) ?? ''}` : (items[0] ?? '');
const plural = (n: number, one: string, many: string): string => `${n.toLocaleString('pt-BR')} ${n === 1 ? one : many}`;
const units = { s: 's', min: 'min', h: 'h', d: 'd' } as const;

export const ptBR: Messages = {
  signIn: {
    refusedConnected: (kind: string) =>
      `${{ google: 'O Google', microsoft: 'A Microsoft', caldav: 'O servidor CalDAV' }[kind] ?? kind} recusou o acesso a esta agenda, conectada pela web (acesso revogado, login expirado ou senha de app trocada)`,
    connectAgain: (kind: string, name: string) =>
      `Conecte de novo: remova a conexão e faça um novo convite na página de situação (Agendas conectadas), ou com \`calbridge connections remove ${kind}.${name}\` e \`calbridge connect invite --target ${kind} --name ${name} --calendar-key CHAVE\`.`,
    googlePublishFirst:
      'Se a tela de consentimento OAuth do projeto do Google Cloud de connect.google_client ainda estiver em "Teste", o Google encerra os acessos após 7 dias: publique-a antes (console do Google Cloud, tela de consentimento OAuth, "Publicar app"), ou isto acontece de novo em uma semana.',
    googleTestingTrap: (days: number) =>
      `O Google recusou o acesso a esta agenda, conectada pela web, ${days} dias depois de concedido: o app OAuth de connect.google_client está em "Teste", cujos acessos expiram após 7 dias`,
  },
  alerts: {
    dbWritable:
      'O calbridge não consegue gravar seu banco de dados, então nada novo é guardado nem espelhado: verifique o espaço em disco e as permissões do arquivo em database.path e reinicie o calbridge.',
    bookingApi: (lastOk) =>
      `A API de agendamentos está falhando${lastOk === null ? '' : ` (última resposta boa em ${lastOk})`}, então agendamentos novos e alterados não são lidos: verifique booking.base_url, booking.token e se o serviço de agendamentos está no ar.`,
    bookingBreaker: (held) =>
      `O disjuntor de exclusões segura ${plural(held, 'agendamento', 'agendamentos')} que o serviço de agendamentos diz que não existem mais, acima de poll.max_gone_per_hour: verifique o serviço de agendamentos; se não existem mesmo, rode \`calbridge sync --allow-mass-changes\` uma vez.`,
    googleAuth:
      'O Google recusou o acesso do calbridge (acesso revogado, ou o acesso expirou): rode `calbridge google auth` de novo para conectar a conta Google.',
    googleTestingTrap: (days) =>
      `O Google recusou o acesso do calbridge ${days} dias depois de concedido: o app OAuth está em "Teste", cujos acessos expiram após 7 dias. ` +
      'Publique a tela de consentimento OAuth (console do Google Cloud, tela de consentimento OAuth, "Publicar app") e rode `calbridge google auth` de novo.',
    googleServiceAccount:
      'O Google recusou a conta de serviço: verifique o arquivo de chave em google.credentials.service_account_file e se cada agenda está compartilhada com a conta de serviço.',
    caldavAuth: 'O servidor CalDAV recusou o usuário e a senha: crie uma nova senha de app para a conta e coloque-a em caldav.password.',
    microsoftAuth:
      'A Microsoft recusou o acesso do calbridge: rode `calbridge microsoft auth` de novo (acesso delegado), ou verifique o segredo do app e o consentimento do administrador (só app).',
    writes: (n, target) =>
      `${plural(n, 'agendamento não pôde', 'agendamentos não puderam')} ser gravado${n === 1 ? '' : 's'} ${{ google: 'no Google Agenda', caldav: 'na agenda CalDAV', microsoft: 'no Outlook' }[target]} e ${n === 1 ? 'está' : 'estão'} sendo tentado${n === 1 ? '' : 's'} de novo: os motivos estão na página de status.`,
    breaker: (target, deletes, mirrored) =>
      `O disjuntor ${{ google: 'do Google', caldav: 'do CalDAV', microsoft: 'da Microsoft' }[target]} segura ${plural(deletes, 'exclusão', 'exclusões')} de ${mirrored} eventos espelhados: verifique o serviço de agendamentos; se forem reais, rode \`calbridge sync --allow-mass-changes\` uma vez.`,
    push: (address) =>
      `Nenhum canal de push do Google está aberto (renová-los falha), então mudanças feitas no Google Agenda só chegam no horário da sincronização reversa: verifique se ${address} é acessível pela internet via https.`,
    microsoftPush:
      'Renovar as notificações de mudança do Microsoft Graph falha, então mudanças feitas no Outlook só chegam no horário da consulta delta: verifique se public_url é acessível pela internet via https.',
    recovered: (problem) => `Resolvido: ${problem.replace(/\.$/, '')}. Nada mais a fazer.`,
    statusLink: (url) => `Status: ${url}`,
  },
  tag: 'pt-BR',
  status: {
    CONFIRMED: 'Confirmado',
    PENDING: 'Pendente',
    ATTENDED: 'Atendido',
    IN_PROGRESS: 'Em atendimento',
    NO_SHOW: 'Não compareceu',
    CANCELED: 'Cancelado',
    CANCELED_CLIENT: 'Cancelado pelo cliente',
    CANCELED_GOOGLE: 'Cancelado pela agenda',
    PENDING_PAYMENT: 'Aguardando pagamento',
    PENDING_FORM: 'Aguardando formulário',
    PENDING_COMPANIONS: 'Aguardando acompanhantes',
  },
  unknownStatus: 'Outra situação',
  event: {
    services: 'Serviços',
    professional: 'Profissional',
    person: 'Cliente',
    email: 'E-mail',
    phone: 'Telefone',
    code: 'Código',
    status: 'Situação',
    busy: 'Ocupado',
    untitled: 'Agendamento',
  },
  direction: {
    'booking-to-targets': (outputs: string) => `agenda → ${outputs}`,
    'google-to-booking': 'Google → agenda',
    'caldav-to-booking': 'CalDAV → agenda',
    'microsoft-to-booking': 'Outlook → agenda',
    reverted: 'desfeito',
    refused: 'recusado',
  },
  outputs: { google: 'Google', caldav: 'CalDAV', microsoft: 'Outlook', feeds: 'feeds' },
  activity: {
    and: andList,
    removedFrom: (targets) =>
      `removido ${andList(targets.map((t) => ({ google: 'do Google', caldav: 'do calendário CalDAV', microsoft: 'do Outlook', feeds: 'dos feeds' })[t]))}`,
    leftScope: (removed) => `saiu do escopo espelhado (poll.filters) → ${removed}`,
    goneAtBooking: (removed) => `não está mais no sistema de agendamento → ${removed}`,
    seenCancelled: (at) => `visto já cancelado, ${at}`,
    booked: (at, status) => `agendado para ${at}${status ? ` (${status})` : ''}`,
    back: (at, status) => `de volta no sistema de agendamento, ${at}${status ? ` (${status})` : ''}`,
    cancelledAtBooking: (status, removed) => `${status} no sistema de agendamento → ${removed}`,
    movedAtBooking: (at, was) => `remarcado no sistema de agendamento para ${at} (era ${was})`,
    statusChanged: (status, was) => `agora ${status} no sistema de agendamento (era ${was})`,
    detailsChanged: 'detalhes alterados no sistema de agendamento',
    imported: (count, from, to) =>
      `${plural(count, 'agendamento novo importado', 'agendamentos novos importados')} do sistema de agendamento numa consulta, entre ${from} e ${to}`,
    backfill: (count, place) => `${plural(count, 'agendamento adicionado', 'agendamentos adicionados')} a ${place}`,
    googlePlace: (list) => `Google Agenda${list}`,
    caldavPlace: (many, list) => `${many ? 'os calendários' : 'o calendário'} CalDAV${list}`,
    microsoftPlace: (many, list) => `${many ? 'os calendários' : 'o calendário'} do Outlook${list}`,
    writes: {
      insert: 'adicionado ao Google',
      update: 'atualizado no Google',
      delete: 'removido do Google',
      move: 'movido para outra agenda do Google',
      other: 'gravado no Google',
    },
    places: { google: 'no Google', caldav: 'no calendário CalDAV', microsoft: 'no Outlook' },
    wins: 'vale o sistema de agendamento',
    needsTime: 'um agendamento precisa de horário',
    putBack: {
      'not-a-time': (place) => ({
        text: `virou dia inteiro ou repetido ${place} → desfeito`,
        why: 'um agendamento é uma reserva num só horário',
      }),
      length: (place) => ({
        text: `duração alterada ${place} → voltou à duração agendada`,
        why: 'o sistema de agendamento aceita um novo início, não uma nova duração',
      }),
      title: (place) => ({ text: `título alterado ${place} → título restaurado`, why: 'o título vem do agendamento; altere-o lá' }),
      description: (place) => ({ text: `descrição alterada ${place} → restaurada`, why: 'a descrição vem do agendamento; altere-a lá' }),
      status: (place) => ({ text: `situação alterada ${place} → restaurada`, why: 'a situação vem do agendamento; altere-a lá' }),
    },
    earlierWrite: (place, to) =>
      `um horário anterior gravado pelo calbridge aparecia ${place}${to ? ` (${to})` : ''}, não uma mudança de alguém → voltou ao horário agendado`,
    movedMeanwhile: (place, to) =>
      `movido ${place}${to ? ` para ${to}` : ''}, mas o sistema de agendamento o remarcou nesse meio tempo → desfeito`,
    deletedChangedMeanwhile: (place) => `apagado ${place}, mas o sistema de agendamento o alterou nesse meio tempo → recriado`,
    deletedRecreated: (place) => `apagado ${place} → recriado`,
    stillBooked: 'continua agendado no sistema de agendamento; on_delete: recreate',
    deletedLeft: (place) => `apagado ${place} → mantido apagado`,
    keeps: 'o sistema de agendamento o mantém; on_delete: ignore',
    deletedAlreadyCancelled: (place) => `apagado ${place}; já estava cancelado no sistema de agendamento`,
    deletedCancelled: (place) => `apagado ${place} → cancelado no sistema de agendamento`,
    onDeleteCancel: 'on_delete: cancel',
    deletedGoneToo: (place) => `apagado ${place}; também não existe mais no sistema de agendamento`,
    deletedRefused: (place) => `apagado ${place} → o sistema de agendamento recusou o cancelamento → recriado`,
    refused: 'recusado',
    deletedNotTaken: (place) => `apagado ${place} → o sistema de agendamento não aceitou o cancelamento → recriado`,
    movedAlreadyThere: (place, to) => `movido ${place} para ${to}; o sistema de agendamento já tinha esse horário`,
    movedRescheduled: (place, to) => `movido ${place} para ${to} → remarcado no sistema de agendamento`,
    movedDropped: (place, to, cancelled) =>
      `movido ${place} para ${to}, mas está ${cancelled ? 'cancelado' : 'removido'} no sistema de agendamento → nada enviado`,
    movedPutBack: (place, to) => `movido ${place} para ${to}, mas já mostra de novo o horário agendado → nada enviado`,
    movedTakenBack: (place, to) => `movido ${place} para ${to}, mas desfeito antes do envio → nada enviado`,
    movedOnto: (taken, to) => `movido para o horário de ${andList(taken)} (${to}) → desfeito`,
    movedTaken: (place, to) => `movido ${place} para ${to}, um horário ocupado → desfeito`,
    slotTaken: 'o horário está ocupado no sistema de agendamento; on_conflict: revert',
    movedRefused: (place, to) => `movido ${place} para ${to} → recusado pelo sistema de agendamento → desfeito`,
    movedNotTaken: (place, to) => `movido ${place} para ${to} → o sistema de agendamento não aceitou → desfeito`,
  },
  relative: {
    now: 'agora mesmo',
    ago: (n, unit) => `há ${n} ${units[unit]}`,
    in: (n, unit) => `em ${n} ${units[unit]}`,
  },
  page: {
    title: 'calbridge: situação',
    timesIn: (zone) => `Horários em ${zone}`,
    allWell: 'Tudo certo',
    problems: (n) => (n === 1 ? '1 problema precisa de atenção' : `${n} problemas precisam de atenção`),
    ready: 'Pronto: webhooks e feeds estão sendo atendidos.',
    notReady: 'Fora do ar: webhooks e feeds são recusados até que isto seja corrigido.',
    appointments: (n) => plural(n, 'agendamento', 'agendamentos'),
    lastPoll: (ago) => `última consulta ${ago}`,
    inGoogle: (n, pending) => `${plural(n, 'evento', 'eventos')} no Google${pending ? `, ${pending} a gravar` : ''}`,
    inCalDav: (n, pending) => `${plural(n, 'evento', 'eventos')} no CalDAV${pending ? `, ${pending} a gravar` : ''}`,
    pushBack: 'mudanças feitas no Google voltam na hora (push)',
    scheduleBack: 'mudanças feitas no Google voltam no horário programado',
    caldavBack: 'mudanças feitas no calendário CalDAV voltam no horário programado',
    inOutlook: (n, pending) => `${plural(n, 'evento', 'eventos')} no Outlook${pending ? `, ${pending} a gravar` : ''}`,
    outlookPushBack: 'mudanças feitas no Outlook voltam na hora (notificações de mudança)',
    outlookScheduleBack: 'mudanças feitas no Outlook voltam no horário programado',
    feeds: (n) => plural(n, 'feed', 'feeds'),
    activity: 'Atividade recente',
    nothingYet: 'Nada aconteceu ainda.',
    agenda: 'Hoje e amanhã',
    agendaLead: (where) =>
      `Cada agendamento como está no sistema de agendamento, e como ${andList(where)} o ${where.length > 1 ? 'mostram' : 'mostra'} agora.`,
    eachFeed: 'cada feed',
    today: 'Hoje',
    tomorrow: 'Amanhã',
    noAppointments: 'Nenhum agendamento.',
    more: (n) => `… e mais ${n}`,
    time: 'Horário',
    appointment: 'Agendamento',
    shown: {
      ok: 'mostrado',
      busy: 'como ocupado',
      cancelled: 'como cancelado',
      none: 'não mostrado',
      at: (t) => `às ${t}`,
      failed: 'não gravado, tentando de novo',
      waiting: 'ainda não está lá',
    },
    subscribe: 'Assinar um feed',
    noFeeds: 'Nenhum feed configurado.',
    feedsTitle: 'Feeds',
    scan: 'Leia um código com o celular, ou abra o link webcal num aparelho com app de calendário.',
    noQr: 'Abra o link webcal num aparelho com app de calendário (esta demonstração atende só nesta máquina, então um celular não abriria um código).',
    qrLabel: (name) => `Código QR do link webcal de ${name}`,
    subscribeButton: 'Assinar (webcal)',
    details: 'Detalhes',
    reported: (n) => `Erros informados pelas partes (${n})`,
    refreshes: (s) => `Esta página se atualiza a cada ${s} segundos.`,
    yes: 'sim',
    no: 'não',
    none: 'nenhum',
  },
  problems: {
    notReady: (why) => `o calbridge não pode atender: ${why}`,
    notReadyTodo: 'Webhooks e feeds são recusados até que isto seja corrigido; o log diz mais.',
    detailsBelow: 'Os detalhes estão abaixo.',
    googleAuth: 'O Google recusou as credenciais do calbridge, então nenhuma mudança chega ao Google Agenda.',
    googleAuthTodo:
      'Rode `calbridge google auth` no servidor para entrar de novo (um app OAuth deixado em “Teste” perde o acesso após 7 dias: publique-o “Em produção”), ou confira a chave da conta de serviço e o compartilhamento da agenda.',
    googleSaid: (text) => `O Google disse: ${text}`,
    googleFailed: (n, codes) =>
      `${plural(n, 'agendamento', 'agendamentos')}${codes ? ` (${codes})` : ''} não ${n === 1 ? 'pôde' : 'puderam'} ser gravado${n === 1 ? '' : 's'} no Google; o calbridge continua tentando sozinho.`,
    googleFailedTodo:
      'Se o número não baixar, leia a resposta do Google e confira se a agenda está compartilhada com a conta do calbridge com “Fazer alterações nos eventos”.',
    notCaldav: 'caldav.url não leva a um servidor CalDAV, então nenhum agendamento chega ao calendário CalDAV.',
    notCaldavTodo:
      'Ponha em caldav.url a raiz DAV do servidor (docs/caldav-setup.md a dá para iCloud, Nextcloud e Fastmail) e reinicie o calbridge.',
    noCalendar: (name) => `A conta CalDAV não tem o calendário “${name}”, então nenhum agendamento chega a ele.`,
    noCalendarTodo:
      'Ponha nessa entrada de caldav.calendars um dos calendários listados abaixo (o nome como os apps o mostram, ou a URL) e reinicie o calbridge.',
    caldavFailed: (n, codes) =>
      `${plural(n, 'agendamento', 'agendamentos')}${codes ? ` (${codes})` : ''} não ${n === 1 ? 'pôde' : 'puderam'} ser gravado${n === 1 ? '' : 's'} no calendário CalDAV; o calbridge continua tentando sozinho.`,
    caldavFailedTodo: 'Se o número não baixar, leia a resposta do servidor e confira se a conta pode alterar eventos nesse calendário.',
    caldavSaid: (text) => `O servidor CalDAV disse: ${text}`,
    caldavAuth: 'O servidor CalDAV recusou o usuário ou a senha, então nenhum agendamento chega ao calendário CalDAV.',
    caldavAuthTodo:
      'Confira caldav.username e caldav.password: iCloud e Fastmail pedem uma senha específica de app, não a senha da conta (redefinir a senha do ID Apple revoga todas elas), e o Nextcloud com login em dois fatores também.',
    microsoftAuth: 'A Microsoft recusou o acesso do calbridge, então nenhuma mudança chega ao Outlook.',
    microsoftAuthTodo:
      'Para a conta de uma pessoa (delegada), rode `calbridge microsoft auth` no servidor para entrar de novo. Para só-app, confira microsoft.credentials.client_secret (segredos expiram: crie um novo em Certificados e segredos no Entra ID) e se um administrador deu o consentimento (docs/microsoft-setup.md).',
    microsoftSaid: (text) => `A Microsoft disse: ${text}`,
    microsoftFailed: (n, codes) =>
      `${plural(n, 'agendamento', 'agendamentos')}${codes ? ` (${codes})` : ''} não ${n === 1 ? 'pôde' : 'puderam'} ser gravado${n === 1 ? '' : 's'} no Outlook; o calbridge continua tentando sozinho.`,
    microsoftFailedTodo:
      'Se o número não baixar, leia a resposta da Microsoft e confira se o app (ou a pessoa conectada) pode alterar eventos na agenda dessa caixa de correio.',
  },
  warnings: {
    bookingSilentYet: 'A API do sistema de agendamento ainda não respondeu com sucesso.',
    bookingSilentSince: (when) => `A API do sistema de agendamento não responde com sucesso desde ${when}.`,
    bookingTodo: 'Confira booking.base_url e booking.token, e se o sistema de agendamento está no ar.',
    googleSilent: (minutes) => `O Google não responde com sucesso há mais de ${minutes} minutos.`,
    caldavSilent: (minutes) => `O servidor CalDAV não responde com sucesso há mais de ${minutes} minutos.`,
    microsoftSilent: (minutes) => `O Microsoft Graph não responde com sucesso há mais de ${minutes} minutos.`,
    silentTodo: 'Confira a rede e a página de situação do serviço; os detalhes estão abaixo.',
    webhooksSilent: (n) => `Os webhooks parecem mudos: as duas últimas consultas acharam ${n} mudanças que nenhum webhook avisou.`,
    webhooksTodo: 'Confira `calbridge webhooks list` e a configuração de webhooks do sistema de agendamento.',
    deliveriesFailed: (n) => `${plural(n, 'entrega de webhook falhou', 'entregas de webhook falharam')}.`,
    movesFailed: (n, place) =>
      `${plural(n, 'mudança feita', 'mudanças feitas')} ${place} não ${n === 1 ? 'pôde' : 'puderam'} ser enviada${n === 1 ? '' : 's'} ao sistema de agendamento.`,
    reverseFailed: (place) => `As mudanças feitas ${place} não puderam ser lidas na última rodada.`,
    noPush: 'Nenhum canal de push do Google está aberto: mudanças feitas no Google voltam só no horário programado.',
    detailsTodo: 'Os detalhes estão abaixo.',
  },
  unauthorized: {
    title: 'calbridge: entrar',
    noToken:
      'Esta página ainda não abre para ninguém: server.admin_token não está definido. Defina-o (16 caracteres ou mais), reinicie o calbridge e abra esta página de novo com ele como senha; ou rode `calbridge status` no servidor.',
    needToken: 'Esta página pede o token de administração: abra-a de novo e dê server.admin_token como senha (qualquer nome de usuário).',
  },
  statusCommand: {
    allWell: 'calbridge: tudo certo.',
    problems: (n) => `calbridge: ${n === 1 ? '1 problema precisa' : `${n} problemas precisam`} de atenção.`,
    todo: 'O que fazer',
    counts: 'Números',
    lastActivity: 'Atividade mais recente',
    at: (when, zone) => `em ${when} (${zone})`,
    json: 'Para todos os detalhes: calbridge status --json.',
    detailsJson: 'os detalhes estão em calbridge status --json.',
  },
  demo: {
    intro: (count, seconds) =>
      `demonstração do calbridge: um sistema de agendamento simulado com ${count} agendamentos que mudam o tempo todo (a cada ${seconds} s).`,
    open: 'Abra:',
    statusPage: 'situação',
    google: 'Google',
    googleNote: '(as agendas simuladas do Google)',
    statusJson: 'situação JSON',
    feed: 'feed',
    subscribe: 'assinar',
    phone: 'no celular',
    metrics: 'métricas',
    people: (seconds) => `O Google é simulado: cada agendamento é espelhado lá, e a cada ${seconds} s alguém move ou apaga um evento nele.`,
    nobody: 'O Google é simulado: cada agendamento é espelhado lá; ninguém o edita (--people-interval 0).',
    realGoogle: 'O Google é o do --config: os agendamentos simulados são gravados nas agendas mapeadas.',
    googleOff: 'O Google está desligado no arquivo do --config.',
    temporary: (dir) => `O banco de dados é temporário (${dir}) e é apagado ao sair. Pare com Ctrl-C.`,
    feedName: 'Clínica de demonstração',
    outlook: 'Outlook',
    outlookNote: '(as agendas simuladas do Outlook)',
    outlookPeople: (seconds) =>
      `O Outlook (Microsoft 365) também é simulado: cada agendamento é espelhado lá, e a cada ${seconds} s alguém move ou apaga um evento nele.`,
    outlookNobody: 'O Outlook (Microsoft 365) também é simulado: cada agendamento é espelhado lá; ninguém o edita (--people-interval 0).',
    movedFree: (app, summary, from, to) => `alguém no ${app} arrasta “${summary}” de ${from} para ${to}, um horário livre`,
    movedTaken: (app, summary, from, onto, to) => `alguém no ${app} arrasta “${summary}” de ${from} para cima de “${onto}” às ${to}`,
    deleted: (app, summary, at) => `alguém no ${app} apaga “${summary}” (${at})`,
    otherCalendar: 'Outros agendamentos',
    professionals: 'Profissionais, cada um com sua própria conta de agenda (simulada):',
    professional: (app, account, calendar) => `${app}, ${account}: os agendamentos de “${calendar}”`,
    invite: 'conectar',
    inviteNote: (person, calendar) =>
      `Um convite “conecte sua agenda” para ${person} (“${calendar}”), também na página de situação: abra, permita, escolha uma agenda e confirme; ela passa a ser espelhada em uma passada. Vale uma vez.`,
    clinicAccount: 'A conta da clínica: todos os agendamentos',
    ownAccount: (person) => `A conta própria de ${person}`,
    invitedAccount: (person) => `A conta própria de ${person} (conectada pelo convite da página de situação)`,
    invitedOffice: (calendar) => `Consultório · ${calendar}`,
    consentTitle: 'Entrar com o Google (simulado)',
    consentAsks: (person) =>
      `Você entrou como ${person}. A demonstração do calbridge pede para ver a lista das suas agendas e alterar os eventos da que você escolher.`,
    consentAllow: 'Permitir',
    inviteTitle: 'Conecte sua agenda (demonstração)',
    inviteText: (person, calendar) =>
      `A demonstração fez um convite de uso único para ${person}, cujos agendamentos estão em “${calendar}”. Abra, permita o acesso ao Google simulado, escolha uma agenda e confirme: os agendamentos dela passam a ser espelhados lá em uma passada.`,
    inviteUsed: (person) => `${person} conectou a agenda dela: ela aparece em Agendas conectadas e é espelhada.`,
  },
  connect: connectPtBR,
  demoGoogle: {
    title: 'Google Agenda simulado · demonstração do calbridge',
    heading: 'Google Agenda',
    simulated: '(simulado)',
    link: 'Google Agenda simulado →',
    statusPage: 'Página de situação',
    about: (events, calendars, names) =>
      `O que o calbridge espelhou nas agendas simuladas do Google desta demonstração: ${plural(events, 'evento', 'eventos')} em ${plural(calendars, 'agenda', 'agendas')} (${names}). Pessoas simuladas movem e apagam esses eventos de vez em quando; a atividade da página de situação diz o que o calbridge fez com cada um.`,
    time: 'Horário',
    event: 'Evento',
    calendar: 'Agenda',
    tentative: 'a confirmar',
    today: 'Hoje, ',
    noUpcoming: 'Nenhum evento por vir.',
    earlier: (n) => `Dias anteriores (${plural(n, 'evento', 'eventos')})`,
    refreshes: (s) => `Esta página se atualiza a cada ${s} segundos.`,
  },
  demoOutlook: {
    title: 'Agenda do Outlook simulada · demonstração do calbridge',
    heading: 'Agenda do Outlook',
    simulated: '(simulada)',
    link: 'Agenda do Outlook simulada →',
    statusPage: 'Página de situação',
    about: (events, calendars, names) =>
      `O que o calbridge espelhou no Outlook (Microsoft 365) simulado desta demonstração: ${plural(events, 'evento', 'eventos')} em ${plural(calendars, 'agenda', 'agendas')} (${names}). Pessoas simuladas movem e apagam esses eventos de vez em quando; a atividade da página de situação diz o que o calbridge fez com cada um.`,
    time: 'Horário',
    event: 'Evento',
    calendar: 'Agenda',
    tentative: 'a confirmar',
    today: 'Hoje, ',
    noUpcoming: 'Nenhum evento por vir.',
    earlier: (n) => `Dias anteriores (${plural(n, 'evento', 'eventos')})`,
    refreshes: (s) => `Esta página se atualiza a cada ${s} segundos.`,
  },
};
