"""The web app manifest and its icons: a phone can add the site to its home
screen only if the manifest comes as ``application/manifest+json`` and names icons that exist."""


def test_the_manifest_is_served_with_its_content_type_and_its_icons_exist(client):
    answer = client.get("/static/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert set(sizes) == {"any", "192x192", "512x512"}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"] == icon["type"]
    assert 'rel="manifest"' in client.get("/").text
