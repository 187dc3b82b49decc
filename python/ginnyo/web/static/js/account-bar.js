// The lobby header's account line: "signed in as NAME · sign out", or the links to sign in and up.
import { api } from "./common.js";

const signedOut = document.getElementById("signed-out");
const signedIn = document.getElementById("signed-in");

async function showAccount() {
  let account = null;
  try {
    account = await api("GET", "/api/me");
  } catch {
    account = null;   // 401: no one is signed in (or the server is away: the links stay)
  }
  document.getElementById("account-name").textContent = account ? account.name : "";
  signedIn.classList.toggle("hidden", !account);
  signedOut.classList.toggle("hidden", Boolean(account));
}

document.getElementById("sign-out").addEventListener("click", async () => {
  try {
    await api("DELETE", "/api/session");
  } finally {
    await showAccount();
  }
});
showAccount();
