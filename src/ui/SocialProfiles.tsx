/**
 * The shop's social profiles (site settings `social.profiles`), linked in every page's footer. Each link's name says
 * whose profile on which network ('Vitrine Demo Store on Instagram'): the icon-less short text is not enough for a
 * screen reader's list of links.
 */
import { SOCIAL_NETWORK_NAMES, socialProfileLabel, type SocialNetwork } from '../core/social';

export interface SocialProfile {
  network: SocialNetwork;
  url: string;
}

export function SocialProfiles({ profiles, shopTitle }: { profiles: readonly SocialProfile[]; shopTitle: string }) {
  if (profiles.length === 0) return null;
  return (
    <nav className="social-profiles" aria-label="Social media">
      <ul className="social-profiles__list">
        {profiles.map((profile) => (
          <li key={`${profile.network} ${profile.url}`}>
            <a
              className={`social-profiles__link social-profiles__link--${profile.network}`}
              href={profile.url}
              rel="me noopener noreferrer"
              aria-label={socialProfileLabel(shopTitle, profile.network)}
            >
              {SOCIAL_NETWORK_NAMES[profile.network]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
