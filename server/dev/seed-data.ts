/**
 * Demo organisations loaded by `npm run server -- --seed`. All fictional. Chosen to cover every
 * readiness label, risk band, ARIP stage and product classification (and a null classification),
 * organisations with 0, 1 and more than 3 gaps, and active, expired and revoked links; every
 * organisation is on a tier that can create share links. `test/server/dev/seed-data.test.ts` enforces this.
 */

import type { AripStage, GapSeverity, ProductClassification } from '../../lib/core/labels';

export type DemoOrganisation = {
  name: string;
  subscription_tier: 'starter' | 'growth' | 'scale';
  profile: {
    readiness_score: number;
    fundraise_score: number;
    checklist_complete: number;
    checklist_total: number;
    product_classification: ProductClassification | null;
    primary_regulator: string | null;
    secondary_regulators: string[];
    arip_stage: AripStage | null;
    gaps: { title: string; severity: GapSeverity; regulatory_basis: string }[];
  };
  links: { label: string; state: 'active' | 'expired' | 'revoked' }[];
};

export const DEMO_ORGANISATIONS: DemoOrganisation[] = [
  {
    name: 'Ìlú Digital Exchange Ltd',
    subscription_tier: 'scale',
    profile: {
      readiness_score: 93,
      fundraise_score: 88,
      checklist_complete: 47,
      checklist_total: 48,
      product_classification: 'DAX',
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: ['CBN', 'NFIU'],
      arip_stage: 'aip_active',
      gaps: [],
    },
    links: [
      { label: 'Series A data room', state: 'active' },
      { label: 'Old link sent to wrong fund', state: 'revoked' },
    ],
  },
  {
    name: 'Kobo Vault Custody Ltd',
    subscription_tier: 'growth',
    profile: {
      readiness_score: 78,
      fundraise_score: 72,
      checklist_complete: 36,
      checklist_total: 44,
      product_classification: 'DAC',
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: ['CBN'],
      arip_stage: 'formal_application',
      gaps: [
        {
          title: 'Segregation of client digital assets not independently attested',
          severity: 'high',
          regulatory_basis:
            'SEC Nigeria rules on custody of digital assets: client assets must be held separately from the custodian’s own assets and reconciled daily.',
        },
      ],
    },
    links: [{ label: 'Seed extension: investor link', state: 'active' }],
  },
  {
    name: 'Sahel Tokenworks SA',
    subscription_tier: 'growth',
    profile: {
      readiness_score: 34,
      fundraise_score: 22,
      checklist_complete: 9,
      checklist_total: 40,
      product_classification: 'RATOP',
      primary_regulator: 'AMF_UMOA',
      secondary_regulators: ['BCEAO'],
      arip_stage: null,
      gaps: [
        {
          title: 'No authorisation to offer tokenised real-estate securities to the public',
          severity: 'critical',
          regulatory_basis:
            'AMF-UMOA general regulation of the WAEMU regional financial market: a public offer of securities, tokenised or not, needs a prior visa.',
        },
        {
          title: 'AML/CFT programme not aligned with the WAEMU uniform law',
          severity: 'critical',
          regulatory_basis:
            'WAEMU uniform law on anti-money laundering and countering the financing of terrorism; customer due diligence and suspicious-transaction reporting to the national CENTIF.',
        },
        {
          title: 'Payment collection relies on an unapproved e-money partner',
          severity: 'high',
          regulatory_basis: 'BCEAO Instruction No. 008-05-2015 on the conditions for issuing electronic money in WAEMU.',
        },
        {
          title: 'No custody arrangement for the underlying property titles',
          severity: 'high',
          regulatory_basis: 'Investor-protection expectations for asset-backed offerings under AMF-UMOA rules.',
        },
        {
          title: 'Board has no independent compliance officer',
          severity: 'medium',
          regulatory_basis: 'Governance requirements for market participants approved by AMF-UMOA.',
        },
      ],
    },
    links: [
      { label: 'Pre-seed screening link', state: 'active' },
      { label: 'Accelerator application (May)', state: 'expired' },
    ],
  },
  {
    name: 'Harambee Pay Ltd',
    subscription_tier: 'scale',
    profile: {
      readiness_score: 86,
      fundraise_score: 81,
      checklist_complete: 39,
      checklist_total: 45,
      product_classification: 'PAYMENT',
      primary_regulator: 'CBK',
      secondary_regulators: ['ODPC'],
      arip_stage: null,
      gaps: [
        {
          title: 'Trust account for customer funds not yet diversified across two banks',
          severity: 'high',
          regulatory_basis:
            'Central Bank of Kenya National Payment System Regulations 2014: customer funds held in trust and protected from the provider’s creditors.',
        },
        {
          title: 'Data protection impact assessment for agent onboarding outstanding',
          severity: 'medium',
          regulatory_basis: 'Kenya Data Protection Act 2019, s.31 (data protection impact assessment).',
        },
      ],
    },
    links: [{ label: 'Bank partnership due diligence', state: 'active' }],
  },
  {
    name: 'Gold Coast Digital Assets Ltd',
    subscription_tier: 'growth',
    profile: {
      readiness_score: 55,
      fundraise_score: 48,
      checklist_complete: 22,
      checklist_total: 42,
      product_classification: 'DAI',
      primary_regulator: 'SEC_GHANA',
      secondary_regulators: ['BOG'],
      arip_stage: null,
      gaps: [
        {
          title: 'VASP registration with SEC Ghana not yet filed',
          severity: 'critical',
          regulatory_basis:
            'SEC Ghana and Bank of Ghana framework for virtual asset service providers: intermediaries must register before serving Ghanaian clients.',
        },
        {
          title: 'Travel Rule messaging not implemented for transfers above the threshold',
          severity: 'high',
          regulatory_basis: 'FATF Recommendation 16 as applied to VASPs; Ghana Anti-Money Laundering Act 2020 (Act 1044).',
        },
        {
          title: 'Client money reconciliation is monthly, not daily',
          severity: 'medium',
          regulatory_basis: 'SEC Ghana conduct rules for market operators holding client assets.',
        },
      ],
    },
    links: [
      { label: 'Angel syndicate review', state: 'active' },
      { label: 'Demo day link (March)', state: 'expired' },
    ],
  },
  {
    name: 'Ubuntu Ledger (Pty) Ltd',
    subscription_tier: 'scale',
    profile: {
      readiness_score: 97,
      fundraise_score: 91,
      checklist_complete: 50,
      checklist_total: 50,
      product_classification: 'AVASP',
      primary_regulator: 'FSCA',
      secondary_regulators: ['SARB', 'FIC'],
      arip_stage: null,
      gaps: [
        {
          title: 'Crypto asset Travel Rule exception handling not yet tested end to end',
          severity: 'medium',
          regulatory_basis: 'Financial Intelligence Centre Act 38 of 2001; FIC Directive 9 (crypto asset transfers).',
        },
        {
          title: 'Exchange-control reporting for offshore crypto transfers to be automated',
          severity: 'medium',
          regulatory_basis: 'SARB Financial Surveillance Department: Currency and Exchanges Manual for Authorised Dealers.',
        },
      ],
    },
    links: [{ label: 'Series B lead investor', state: 'active' }],
  },
  {
    name: 'NaijaRaise Offerings Ltd',
    subscription_tier: 'growth',
    profile: {
      readiness_score: 62,
      fundraise_score: 58,
      checklist_complete: 27,
      checklist_total: 46,
      product_classification: 'DAOP',
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: [],
      arip_stage: 'eligibility_notification',
      gaps: [
        {
          title: 'Minimum paid-up capital not yet evidenced',
          severity: 'critical',
          regulatory_basis: 'SEC Nigeria minimum capital requirements for digital asset offering platforms.',
        },
        {
          title: 'Issuer due-diligence checklist missing for token offerings',
          severity: 'high',
          regulatory_basis:
            'SEC Nigeria Rules on Issuance, Offering Platforms and Custody of Digital Assets (2022): platform duties when admitting issuers.',
        },
        {
          title: 'Retail investor limits not enforced in the onboarding flow',
          severity: 'high',
          regulatory_basis: 'SEC Nigeria investor-protection limits for retail participation in digital asset offerings.',
        },
        {
          title: 'Independent penetration test older than 12 months',
          severity: 'medium',
          regulatory_basis: 'SEC Nigeria technology-risk expectations for registered platforms.',
        },
      ],
    },
    links: [
      { label: 'Accelerator cohort 7', state: 'active' },
      { label: 'Shared before pivot', state: 'revoked' },
    ],
  },
  {
    name: 'Arewa Chain Rails Ltd',
    subscription_tier: 'growth',
    profile: {
      readiness_score: 18,
      fundraise_score: 12,
      checklist_complete: 4,
      checklist_total: 44,
      product_classification: 'DAPO',
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: ['CBN'],
      arip_stage: 'initial_assessment',
      gaps: [
        {
          title: 'Operating a digital asset platform before registration',
          severity: 'critical',
          regulatory_basis:
            'Investments and Securities Act 2025: digital assets are securities and platform operators must be registered with SEC Nigeria.',
        },
        {
          title: 'No designated bank account under the CBN VASP account guidelines',
          severity: 'critical',
          regulatory_basis: 'CBN Guidelines on Operations of Bank Accounts for Virtual Asset Service Providers (December 2023).',
        },
        {
          title: 'Customer due diligence relies on self-declared identity only',
          severity: 'critical',
          regulatory_basis:
            'Money Laundering (Prevention and Prohibition) Act 2022: customer due diligence and BVN/NIN verification.',
        },
        {
          title: 'No chief compliance officer appointed',
          severity: 'high',
          regulatory_basis: 'SEC Nigeria fit-and-proper and sponsored-individual requirements for registered operators.',
        },
        {
          title: 'Data protection registration with the NDPC missing',
          severity: 'high',
          regulatory_basis: 'Nigeria Data Protection Act 2023: registration of data controllers of major importance.',
        },
        {
          title: 'Complaints-handling procedure not published',
          severity: 'medium',
          regulatory_basis: 'SEC Nigeria consumer-protection expectations for capital market operators.',
        },
      ],
    },
    links: [{ label: 'First-call screening', state: 'active' }],
  },
  {
    name: 'Kilimanjaro Cross-Border Ltd',
    subscription_tier: 'scale',
    profile: {
      readiness_score: 89,
      fundraise_score: 67,
      checklist_complete: 41,
      checklist_total: 49,
      product_classification: 'HYBRID',
      primary_regulator: 'SEC_NIGERIA',
      secondary_regulators: ['CBN', 'CBK', 'CMA_KENYA'],
      arip_stage: 'transition_to_registration',
      gaps: [
        {
          title: 'Kenyan VASP licence application pending',
          severity: 'high',
          regulatory_basis: 'Kenya Virtual Asset Service Providers Act 2025: licensing by the CMA or CBK according to activity.',
        },
        {
          title: 'Cross-border remittance reporting to CBN not automated',
          severity: 'medium',
          regulatory_basis: 'CBN guidelines for International Money Transfer Services in Nigeria.',
        },
      ],
    },
    links: [
      { label: 'Bridge round: lead investor', state: 'active' },
      { label: 'Bank DD (last quarter)', state: 'expired' },
    ],
  },
  {
    name: 'Imani Fintech Labs Ltd',
    subscription_tier: 'growth',
    profile: {
      readiness_score: 45,
      fundraise_score: 41,
      checklist_complete: 15,
      checklist_total: 38,
      product_classification: null,
      primary_regulator: null,
      secondary_regulators: [],
      arip_stage: null,
      gaps: [
        {
          title: 'Product not yet classified with a lead regulator',
          severity: 'critical',
          regulatory_basis:
            'National Bank of Rwanda regulation on payment service providers and the Capital Market Authority’s fintech sandbox: the licence route depends on the product’s classification.',
        },
        {
          title: 'Customer funds flow not mapped',
          severity: 'high',
          regulatory_basis: 'Payment-system rules on safeguarding customer funds (National Bank of Rwanda).',
        },
        {
          title: 'Privacy notice does not cover cross-border data transfers',
          severity: 'medium',
          regulatory_basis: 'Rwanda Law No. 058/2021 relating to the protection of personal data and privacy.',
        },
      ],
    },
    links: [{ label: 'Pre-seed application', state: 'active' }],
  },
];

/** The demo partner (version 1): a fund that follows one demo company, without a webhook endpoint (its events: GET /api/v1/events). */
export const DEMO_PARTNER = { name: 'Savannah Growth Partners (demo)', follows: 'Kobo Vault Custody Ltd' } as const;
