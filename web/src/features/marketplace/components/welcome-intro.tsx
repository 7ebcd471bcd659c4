import styles from './welcome-intro.module.css';

const STEPS = [
  { title: 'Get ready', text: 'Have your insurance card and your dependents’ information at hand.' },
  { title: 'Find your provider', text: 'Search near home or work, pick a clinic and create your account.' },
  { title: 'Meet your provider', text: 'Your first visit activates your membership.' },
];

/** The welcome content shown before the first search: three steps and the marketplace's reach. */
export function WelcomeIntro() {
  return (
    <section className={styles.intro} aria-labelledby="welcome-title">
      <h2 id="welcome-title" className={styles.title}>
        Primary care your employer sponsors, close to you
      </h2>
      <p className={styles.claim}>Choose from 1200+ clinics and 1000+ providers nationwide</p>
      <ol className={styles.steps}>
        {STEPS.map((step, index) => (
          <li key={step.title} className={styles.step}>
            <span className={styles.number} aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <p className={styles.note}>Only employees of partner employers, and their families, can enrol.</p>
    </section>
  );
}
