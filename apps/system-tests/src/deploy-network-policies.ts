/** What the deploy specs need of a NetworkPolicy, read as the API server would apply it (pods' egress only). */
export interface NetworkPolicy {
  kind: string;
  spec?: {
    podSelector?: LabelSelector;
    policyTypes?: string[];
    egress?: { to?: { ipBlock?: { cidr: string; except?: string[] } }[]; ports?: { port?: number; protocol?: string }[] }[];
  };
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface Connection {
  ip: string;
  port: number;
  protocol?: 'TCP' | 'UDP';
}

const selects = ({ matchLabels = {}, matchExpressions = [] }: LabelSelector = {}, labels: Record<string, string>) =>
  Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
  matchExpressions.every(({ key, operator, values = [] }) => {
    if (operator !== 'In') throw new Error(`selector operator ${operator} is not read here`);
    return values.includes(labels[key] ?? '');
  });

const ipv4 = (ip: string) => ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);

const inCidr = (ip: string, cidr: string) => {
  const [network = '', bits = '32'] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(network) / size);
};

/**
 * Whether a pod with these labels may open the connection: free unless a policy with an Egress type selects it, and
 * then only if a rule of one of those policies allows the port and the address (a peer that selects pods or
 * namespaces never matches an address outside the cluster, so only `ipBlock` peers are read).
 */
export function allowsEgress(policies: NetworkPolicy[], labels: Record<string, string>, { ip, port, protocol = 'TCP' }: Connection): boolean {
  const isolating = policies.filter(
    (policy) => policy.kind === 'NetworkPolicy' && policy.spec?.policyTypes?.includes('Egress') && selects(policy.spec.podSelector, labels),
  );
  if (isolating.length === 0) return true;
  return isolating.some((policy) =>
    (policy.spec?.egress ?? []).some(
      (rule) =>
        (!rule.ports?.length ||
          rule.ports.some((allowed) => (allowed.protocol ?? 'TCP') === protocol && (allowed.port === undefined || allowed.port === port))) &&
        (!rule.to?.length ||
          rule.to.some(({ ipBlock }) => ipBlock && inCidr(ip, ipBlock.cidr) && !(ipBlock.except ?? []).some((except) => inCidr(ip, except)))),
    ),
  );
}
