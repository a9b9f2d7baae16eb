// As connect-en.ts, em português do Brasil.
import type { Messages } from './en.ts';

export const connectPtBR: Messages['connect'] = {
  title: 'Conecte sua agenda',
  provider: { google: 'Google', microsoft: 'Microsoft', caldav: 'CalDAV' },
  intro: (provider) =>
    `O calbridge vai colocar seus agendamentos em uma das suas agendas ${provider} e mantê-los em dia. Você escolhe a agenda; o calbridge não muda mais nada.`,
  continueWith: (provider) => `Continuar com ${provider}`,
  gone: {
    title: 'Este link não funciona',
    text: 'Este link já foi usado, expirou ou nunca existiu. Peça um novo a quem o enviou.',
  },
  refused: {
    title: 'Este login foi recusado',
    text: 'Esta resposta não pertence a um login que o calbridge esteja esperando (já foi usada ou vem de outro lugar). Abra seu link de novo.',
  },
  failed: {
    title: 'O login não funcionou',
    text: (provider) => `O ${provider} não deixou o calbridge entrar. Abra seu link de novo e permita o acesso à sua agenda.`,
    declined: 'O acesso não foi permitido, então nada foi conectado. Abra seu link de novo se mudar de ideia.',
  },
  stale: 'Este formulário está desatualizado. Abra seu link de novo.',
  pick: {
    title: 'Escolha uma agenda',
    text: 'O calbridge vai adicionar seus agendamentos a esta agenda e mantê-los em dia.',
    none: 'Esta conta não tem nenhuma agenda que o calbridge possa alterar. Crie uma (ou peça permissão para alterar uma) e abra seu link de novo.',
    primary: '(agenda principal)',
    confirm: 'Conectar esta agenda',
    taken: (calendar) =>
      `“${calendar}” já recebe agendamentos do calbridge por outra conta, e duas contas escrevendo na mesma agenda sobrescreveriam os eventos uma da outra. Escolha outra agenda, ou peça a quem enviou o link que tire essa agenda do calbridge antes.`,
  },
  done: {
    title: 'Conectada',
    text: (calendar) => `Seus agendamentos vão aparecer em “${calendar}” em poucos minutos. Você pode fechar esta página.`,
  },
  caldav: {
    service: 'Seu serviço de agenda',
    services: {
      icloud: {
        name: 'iCloud',
        help: 'Use uma senha de app: crie uma em appleid.apple.com, em Início de Sessão e Segurança, Senhas de Apps.',
      },
      fastmail: {
        name: 'Fastmail',
        help: 'Use uma senha de app: crie uma no Fastmail em Settings, Privacy & Security, App passwords, com acesso à agenda (CalDAV).',
      },
      nextcloud: {
        name: 'Nextcloud',
        help: 'Use uma senha de app: crie uma no Nextcloud em Configurações, Segurança, Dispositivos e sessões. Informe o endereço do seu Nextcloud abaixo.',
      },
      other: { name: 'Outro servidor CalDAV', help: 'Informe o endereço CalDAV do servidor abaixo, e uma senha de app se ele oferecer.' },
    },
    address: 'Endereço do servidor (Nextcloud ou outro servidor)',
    username: 'Nome de usuário (muitas vezes seu e-mail)',
    password: 'Senha de app',
    check: 'Verificar e listar minhas agendas',
    errors: {
      auth: 'O servidor recusou este usuário e senha. Use uma senha de app, não a senha da sua conta.',
      not_caldav: 'Nenhum servidor de agenda respondeu neste endereço. Confira-o ou escolha seu serviço pelo nome.',
      unreachable: 'O servidor não respondeu. Confira o endereço e tente de novo.',
      inside:
        'Esse endereço fica dentro da rede onde o calbridge roda, e uma agenda conectada por link não pode usá-lo. Peça a quem administra o calbridge para conectar esse servidor para você, ou para permitir endereços privados.',
      none: 'Esta conta não tem nenhuma agenda de eventos.',
      address: 'Informe o endereço do servidor, começando com https://.',
      missing: 'Preencha o nome de usuário e a senha de app.',
    },
  },
  admin: {
    title: 'Agendas conectadas',
    link: 'Agendas conectadas →',
    back: '← Página de status',
    none: 'Nenhuma agenda conectada ainda.',
    account: 'Conta',
    calendarKey: 'Agenda de agendamentos',
    calendar: 'Agenda',
    since: 'Conectada em',
    remove: 'Remover',
    removeNote: 'Remover uma conta para as gravações nela e esquece suas credenciais; os eventos já na agenda ficam.',
    removed: (name) => `${name} foi removida.`,
    invite: 'Criar um convite',
    inviteNote: 'Um link para uma pessoa conectar a própria agenda. Funciona uma vez.',
    target: 'Serviço de agenda',
    name: 'Nome (letras a-z, dígitos, -)',
    days: 'Válido por (dias)',
    make: 'Criar o link',
    made: (until) => `Envie este link para a pessoa. Funciona uma vez, até ${until}.`,
    disabled: 'Conectar agendas está desligado: defina connect.enabled: true (com server.secret_key) na configuração.',
    refused: (reason) => `Nenhum convite foi criado: ${reason}`,
  },
};
